/** electron-builder.yml against the JSON schema electron-builder itself ships, and the promises docs/desktop.md makes. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv } from 'ajv';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as Record<string, unknown>;
const config = load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;

function validator() {
  // The schema uses "description" keywords with markdown and a few custom formats: strict mode off, as electron-builder does.
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(schema);
}

describe('electron-builder.yml', () => {
  it('is valid against app-builder-lib/scheme.json', () => {
    const validate = validator();
    const ok = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('is checked for real: a misspelt key is refused by the same schema', () => {
    const validate = validator();
    expect(validate({ ...config, nsis: { ...(config.nsis as object), oneClik: false } })).toBe(false);
    expect(validate({ ...config, targetz: [] })).toBe(false);
  });

  it('builds NSIS per user without admin rights, a dmg, an AppImage and a deb', () => {
    expect(config.win).toMatchObject({ target: [{ target: 'nsis' }] });
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false, allowElevation: false });
    expect(config.mac).toMatchObject({ target: [{ target: 'dmg' }] });
    expect((config.linux as { target: string[] }).target).toEqual(['AppImage', 'deb']);
  });

  it('ships only the build and package.json, with icons that exist', () => {
    expect(config.files).toEqual(['dist/**', '!dist/**/*.map', 'package.json']);
    for (const key of ['icon']) expect(readFileSync(path.join(root, config[key] as string)).subarray(1, 4).toString()).toBe('PNG');
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main).toBe('dist/main/main.js');
  });

  it('sets the fuses that close Node-level doors', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false,
      grantFileProtocolExtraPrivileges: false, onlyLoadAppFromAsar: true,
    });
  });
});
