import { describe, expect, it } from 'vitest';
import { isLoopbackHost, loopbackSpellingHint } from './loopback';

const hostnameOf = (url: string) => new URL(url).hostname;

describe('isLoopbackHost', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '127.1',
    '0x7f.0.0.1',
    '2130706433',
    '127.0.0.1.',
    'localhost',
    'LOCALHOST',
    'LocalHost',
    '::1',
    '[::1]',
    '[0:0::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::ffff:127.255.255.254]',
    '[0:0:0:0:0:ffff:7f00:1]',
    hostnameOf('http://127.0.0.1:8787/x'),
    hostnameOf('http://[::1]:8080/'),
    hostnameOf('http://[::ffff:127.0.0.1]/'),
  ])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    '',
    '127.0.0.1.evil.com',
    '127.example.com',
    'localhost.evil.com',
    'evil-localhost',
    'foo.localhost',
    // A trailing dot makes the name fully qualified: the resolver skips the hosts file and asks DNS.
    'localhost.',
    'LOCALHOST.',
    'localhost..',
    hostnameOf('http://LOCALHOST.:8787/'),
    '128.0.0.1',
    '126.255.255.255',
    '10.0.0.1',
    '0.0.0.0',
    '0',
    '::',
    '[::]',
    '[::2]',
    '[::ffff:10.0.0.1]',
    '[::ffff:a00:1]',
    '[::127.0.0.1]',
    '[::1',
    '[::1]:80',
    '[::1]x',
    '127.0.0.1:80',
    'localhost:80',
    '127.0.0.1/evil',
    '127.0.0.1\\evil',
    'user@127.0.0.1',
    'evil.com#127.0.0.1',
    'evil.com?127.0.0.1',
    ' 127.0.0.1',
    '127.256.0.1',
    hostnameOf('http://[::ffff:10.0.0.1]/'),
    hostnameOf('http://127.0.0.1.evil.com/'),
  ])('%j is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('loopbackSpellingHint', () => {
  it.each(['localhost.', 'LocalHost.', 'localhost..'])('says to write localhost or 127.0.0.1 for %s', (host) => {
    expect(loopbackSpellingHint(host)).toBe(`"${host}" with a trailing dot is looked up through DNS, which may lead off this machine: write localhost or 127.0.0.1`);
  });

  it.each(['localhost', 'example.com', 'localhost.example.com', 'hooks.localhost.', '10.0.0.1'])('has nothing to say about %s', (host) => {
    expect(loopbackSpellingHint(host)).toBeUndefined();
  });
});
