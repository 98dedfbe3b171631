/** STUB: fault injection hooks. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';

export function installFaults(_app: FastifyInstance, _ctx: ServerContext): void {}
