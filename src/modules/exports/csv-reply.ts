// How an export is answered, by the API and by the dashboard's download buttons alike.
import type { FastifyReply } from 'fastify';
import { lagHeaderValue, REPLICA_LAG_HEADER } from '../../db/replica-lag.js';
import type { CsvExport } from './exports.service.js';

export const CSV_TYPE = 'text/csv; charset=utf-8';

/** The file as a download: streamed (Fastify pipes it, with backpressure), never cached. */
export function sendCsv(reply: FastifyReply, file: CsvExport) {
  return reply
    .type(CSV_TYPE)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header(REPLICA_LAG_HEADER, lagHeaderValue(file.lagSeconds))
    .send(file.stream);
}
