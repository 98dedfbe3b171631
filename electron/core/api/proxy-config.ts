/**
 * Which proxy a request goes through. An explicit proxy applies to every target, loopback included (the
 * user asked for it); an empty string means "no proxy, ignore the environment". Otherwise the environment
 * decides, read once when the client is created: https_proxy/HTTPS_PROXY for https targets,
 * http_proxy/HTTP_PROXY for http ones (lower case wins, as in curl), minus NO_PROXY; loopback targets never
 * go through an environment proxy, since a proxy cannot reach this machine's loopback anyway.
 */
import { BlockList, isIP } from 'node:net';
import { isLoopbackHost } from '../../../shared/loopback';

export type ProxyEnv = Readonly<Record<string, string | undefined>>;
/** The proxy to use for a target, or undefined to connect directly. */
export type ProxyResolver = (target: URL) => URL | undefined;

export class ProxyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProxyConfigError';
  }
}

/** The proxy address without its user name and password, for messages and logs. */
export function redactProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

function parseProxy(raw: string, source: string): URL {
  // curl and most tools take "host:port" as an http proxy.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ProxyConfigError(`${source} is not a valid proxy address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxyConfigError(`${source} uses ${url.protocol.replace(/:$/, '')}; only http:// and https:// proxies are supported`);
  }
  if (!url.hostname) throw new ProxyConfigError(`${source} has no host`);
  return url;
}

const defaultPort = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/** True when NO_PROXY (comma or space separated: `*`, `host`, `.domain`, `*.domain`, `host:port`, `10.0.0.0/8`) covers the target. */
export function matchesNoProxy(noProxy: string, target: URL): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = defaultPort(target);
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    if (entry.includes('/')) {
      if (inSubnet(host, entry)) return true;
      continue;
    }
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const hostPort = bracketed ? [bracketed[1] ?? '', bracketed[2]] : isIP(entry) === 6 ? [entry, undefined] : entry.split(':');
    const [name = '', entryPort] = hostPort;
    if (entryPort && entryPort !== port) continue;
    const domain = name.replace(/^\*/, '').replace(/^\./, '');
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

function inSubnet(host: string, cidr: string): boolean {
  const [net = '', bitsText = ''] = cidr.split('/');
  const family = isIP(net);
  const bits = Number(bitsText);
  if (!family || family !== isIP(host) || !Number.isInteger(bits)) return false;
  const list = new BlockList();
  try {
    list.addSubnet(net, bits, family === 4 ? 'ipv4' : 'ipv6');
  } catch {
    return false;
  }
  return list.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

const envValue = (env: ProxyEnv, name: string): [string, string] | undefined => {
  for (const key of [name.toLowerCase(), name.toUpperCase()]) {
    const value = env[key]?.trim();
    if (value) return [key, value];
  }
  return undefined;
};

/** Builds the resolver; throws ProxyConfigError for an unusable proxy address (naming its source, not its credentials). */
export function createProxyResolver(explicit: string | undefined, env: ProxyEnv = process.env): ProxyResolver {
  if (explicit !== undefined) {
    if (explicit.trim() === '') return () => undefined;
    const proxy = parseProxy(explicit.trim(), 'the proxy setting');
    return () => proxy;
  }
  const fromEnv = (name: string) => {
    const found = envValue(env, name);
    return found ? parseProxy(found[1], `the environment variable ${found[0]}`) : undefined;
  };
  const https = fromEnv('https_proxy');
  const http = fromEnv('http_proxy');
  const noProxy = envValue(env, 'no_proxy')?.[1] ?? '';
  return (target) => {
    const proxy = target.protocol === 'https:' ? https : http;
    if (!proxy || isLoopbackHost(target.hostname) || matchesNoProxy(noProxy, target)) return undefined;
    return proxy;
  };
}
