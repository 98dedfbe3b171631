/** The file handshake: POST /law/api/v1/payroll-submissions (grants) and PUT /uploads/:fileId (the files). */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { submissionRoute } from './submission-route';
import { PART_SUFFIX, uploadRoute } from './upload-route';

/** Removes the partial uploads a crash left behind (never a stored file). */
function sweepPartialUploads(ctx: ServerContext): void {
  for (const name of readdirSync(ctx.uploadsDir)) {
    if (name.endsWith(PART_SUFFIX)) rmSync(join(ctx.uploadsDir, name), { force: true });
  }
}

export function fileRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    sweepPartialUploads(ctx);
    await app.register(submissionRoute(ctx));
    // Its own plugin, so the catch-all body parser applies to uploads only.
    await app.register(uploadRoute(ctx));
  };
}
