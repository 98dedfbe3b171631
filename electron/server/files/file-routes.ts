/** STUB: POST /law/api/v1/payroll-submissions and PUT /uploads/:fileId. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';

export function fileRoutes(_ctx: ServerContext) {
  return (_app: FastifyInstance) => undefined;
}
