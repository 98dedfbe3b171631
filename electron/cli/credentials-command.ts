/** `payroll-uploader credentials set|delete|status --env E`: the client secret lives in the OS keychain. */
import { parseArgs } from 'node:util';
import { profileSchema } from '../../shared/settings.schema';
import { CLIENT_ID_ENV, CLIENT_SECRET_ENV, forgetCredentials, halfSetEnvironment, readKeychainState, saveCredentials } from '../core/credentials';
import { credentialsProblem } from '../core/queue/failures';
import { openCliContext, profileOf, usageErrors } from './cli-context';
import { readLine, readSecret } from './secret-input';
import { EXIT, UsageError } from './usage-error';

export const CREDENTIALS_USAGE = `Usage: payroll-uploader credentials set|delete|status [--env local|sandbox|production] [--client-id ID] [--json]

  set      stores the client id in settings and the client secret in the OS keychain; the secret is
           read from a prompt, or from standard input when it is piped (never from the command line)
  delete   removes the profile's secret from the keychain and its client id from settings
  status   tells whether credentials are set, and where they come from`;

export async function credentialsCommand(args: string[]): Promise<number> {
  const { values, positionals } = usageErrors(() => parseArgs({
    args, allowPositionals: true, strict: true,
    options: { env: { type: 'string' }, 'client-id': { type: 'string' }, json: { type: 'boolean' } },
  }));
  const [action, ...extra] = positionals;
  if (!action || !['set', 'delete', 'status'].includes(action) || extra.length > 0) {
    throw new UsageError(extra.length > 0
      ? 'unexpected extra argument (not repeated here, in case it is a secret): the secret is never taken from the command line; pipe it or type it at the prompt'
      : 'say set, delete or status');
  }
  const ctx = openCliContext();
  const profile = profileOf(values.env, ctx.settings);
  const out = (text: string, json: object) => process.stdout.write(values.json ? `${JSON.stringify(json)}\n` : `${text}\n`);

  if (action === 'set') {
    const clientId = values['client-id'] ?? (process.stdin.isTTY ? await readLine(`Client id (${profile}): `) : undefined);
    if (!clientId) throw new UsageError('--client-id is required when the secret comes from standard input');
    // Checked before the secret is asked for: a wrong client id is a wrong command line (exit code 2).
    const checked = profileSchema.shape.clientId.safeParse(clientId);
    if (!checked.success) {
      throw new UsageError(`${values['client-id'] !== undefined ? '--client-id' : 'the client id'}: ${checked.error.issues.map((issue) => issue.message).join('; ')}`);
    }
    const secret = await readSecret(`Client secret for ${clientId} (${profile}): `);
    if (!secret) throw new UsageError('the client secret is empty');
    await saveCredentials({ profile, clientId, clientSecret: secret, store: ctx.secrets, settings: ctx.settings });
    out(`stored the credentials of client "${clientId}" for ${profile} (secret in the OS keychain)`, { profile, clientId, stored: true });
    return EXIT.ok;
  }
  if (action === 'delete') {
    const { clientId, secretDeleted } = await forgetCredentials({ profile, store: ctx.secrets, settings: ctx.settings });
    const text = clientId === undefined
      ? `no credentials were stored for ${profile}`
      : secretDeleted
        ? `deleted the credentials of client "${clientId}" for ${profile} (its secret from the OS keychain, its client id from settings)`
        : `removed the client id "${clientId}" of ${profile} from settings; the OS keychain held no secret for it`;
    out(text, { profile, deleted: clientId !== undefined, clientId: clientId ?? null, secretDeleted });
    return EXIT.ok;
  }
  const clientId = ctx.settings.get().profiles[profile].clientId;
  // A keychain that cannot be used (missing, locked) is part of the answer, not a failure of the command.
  const { stored, problem } = await readKeychainState(ctx.secrets, profile, clientId);
  const fromEnv = Boolean(process.env[CLIENT_ID_ENV] && process.env[CLIENT_SECRET_ENV]);
  // One variable without the other stops every upload (whatever the keychain holds): said in watch's own words.
  const missing = halfSetEnvironment(profile);
  const halfSet = missing ? credentialsProblem(missing, { profile }) : undefined;
  const lines = [
    `profile: ${profile}`,
    `client id: ${clientId ?? '(not set)'}`,
    `secret in keychain: ${stored ? 'yes' : problem ? 'cannot tell (see below)' : 'no'}`,
    `keychain: ${problem ? `unavailable: ${problem}` : 'available'}`,
    `environment variables ${CLIENT_ID_ENV}/${CLIENT_SECRET_ENV}: ${fromEnv ? 'set (they take precedence)' : halfSet ?? 'not set'}`,
  ];
  out(lines.join('\n'), {
    profile, clientId: clientId ?? null, secretStored: stored, keychainAvailable: !problem, ...(problem ? { keychainProblem: problem } : {}), env: fromEnv,
    ...(halfSet ? { envProblem: halfSet } : {}),
  });
  return !halfSet && (fromEnv || stored) ? EXIT.ok : EXIT.failure;
}
