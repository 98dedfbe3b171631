/** STUB: the request log hooks. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';

export function installRequestLog(_app: FastifyInstance, _ctx: ServerContext): void {}
