/**
 * Media attachments (interface.md section 4, "Chat"): `POST /api/widget/chat/media` takes one file
 * into a session and answers a signed link; `GET /api/widget/media/{file_id}/{file_name}` serves it
 * to whoever holds a valid link.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthLayer } from '../../platform/auth/auth.ts';
import { ErrorSchema, errorResponses, mediaResponse, withExamples } from '../../platform/schemas.ts';
import { securityFor } from '../../platform/openapi.ts';
import { ForbiddenError, ValidationError } from '../../platform/errors.ts';
import type { BotService } from '../bots/bots.service.ts';
import { allowWidgetOrigin, widgetAccess, widgetCallerOf } from '../widget/widget-access.ts';
import type { MediaService } from './media.service.ts';
import { MediaLinkParamsSchema, MediaLinkQuerySchema, MediaUploadFormSchema, MediaUploadSchema, uploadFieldsOf } from './media.schemas.ts';
import { ALLOWED_EXTENSIONS } from './media-types.ts';
import { discardIncoming, receiveForm, type ReceivedForm } from './media-upload.ts';

export interface MediaRouteDeps {
  media: MediaService;
  bots: BotService;
  /** The upload reads its credential out of the form, so it authenticates by hand. */
  auth: Pick<AuthLayer, 'authenticate'>;
  /** Where uploads stream to before they are checked (DATA_DIR/media/.incoming). */
  incomingDir: string;
  /** PARLEY_MAX_UPLOAD_BYTES. */
  maxUploadBytes: number;
}

const TEXT_TYPES = new Set(['text/plain', 'text/csv']);

export function mediaRoutes(deps: MediaRouteDeps) {
  return async function (fastify: FastifyInstance) {
    // Registered here, not on the root: its hooks then run only on these routes.
    await fastify.register(multipart, { limits: { fileSize: deps.maxUploadBytes, files: 1 } });
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { media, bots, auth } = deps;
    const tags = ['widget'];

    /** The form, authenticating by its `bot_id` as soon as that arrives when no bearer was sent. */
    async function receive(request: FastifyRequest): Promise<ReceivedForm> {
      return receiveForm(request, {
        incomingDir: deps.incomingDir,
        maxBytes: deps.maxUploadBytes,
        onField: async (name, value) => {
          if (name === 'bot_id' && !request.principal) await auth.authenticate(request, widgetAccess, value);
        },
      });
    }

    app.post('/api/widget/chat/media', {
      config: { widgetRateLimit: true },
      onRequest: [
        (request, reply, done) => {
          allowWidgetOrigin(request, reply);
          done();
        },
      ],
      schema: {
        operationId: 'uploadChatMedia',
        tags,
        summary: 'Attach a file to a chat session',
        description: `multipart/form-data with \`file\`, \`session_id\` (1 to 128 printable characters; a new id starts the session) and \`bot_id\` (or the bot id or an API key with \`chat\` as bearer). Allowed: ${ALLOWED_EXTENSIONS.join(' ')}, decided from the content, which must agree with the extension (415 otherwise); over PARLEY_MAX_UPLOAD_BYTES: 413. Answers a signed \`file_url\` valid for PARLEY_MEDIA_URL_TTL seconds.`,
        documentedBody: { 'multipart/form-data': MediaUploadFormSchema },
        security: securityFor(widgetAccess),
        response: { 200: MediaUploadSchema, ...errorResponses, 413: withExamples(ErrorSchema, { detail: 'The file is larger than 20971520 bytes (PARLEY_MAX_UPLOAD_BYTES)' }), 415: ErrorSchema },
      },
      handler: async (request, reply) => {
        let form: ReceivedForm | undefined;
        try {
          if (request.headers.authorization) await auth.authenticate(request, widgetAccess);
          form = await receive(request);
          if (!request.principal) await auth.authenticate(request, widgetAccess, form.fields.bot_id);
          const principal = widgetCallerOf(request);
          const fields = uploadFieldsOf(form.fields);
          if (fields.bot_id && fields.bot_id.toLowerCase() !== principal.botId) throw new ForbiddenError("field 'bot_id' names another bot than the credential");
          if (!form.file) throw new ValidationError("field 'file' is required");
          return await media.store(await bots.get(principal.botId), fields.session_id, form.file, { asVisitor: principal.asVisitor });
        } catch (err) {
          stopReading(request, reply);
          throw err;
        } finally {
          await discardIncoming(form?.file);
        }
      },
    });

    app.get('/api/widget/media/:file_id/:file_name', {
      schema: {
        operationId: 'getChatMedia',
        tags,
        summary: 'Read an attached file through its signed link',
        description: 'The link from the upload: 403 when it was changed or has expired, 404 once the file was deleted (with its session or bot).',
        params: MediaLinkParamsSchema,
        querystring: MediaLinkQuerySchema,
        response: {
          200: mediaResponse('*/*', 'The file, with its detected type (image/png, application/pdf, text/csv, audio/mpeg, …)', Type.String({ format: 'binary' })),
          400: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          429: ErrorSchema,
        },
      },
      handler: async (request, reply) => {
        const { file_id, file_name } = request.params;
        const file = await media.open(file_id, file_name, request.query.expires, request.query.signature);
        return reply
          .header('content-type', TEXT_TYPES.has(file.mimeType) ? `${file.mimeType}; charset=utf-8` : file.mimeType)
          .header('content-length', file.sizeBytes)
          // The stored name holds only [A-Za-z0-9._ -]: nothing to escape.
          .header('content-disposition', `inline; filename="${file.fileName}"`)
          .header('cache-control', 'private, max-age=300')
          // A stream is sent as it is; the 200 schema only documents it.
          .send(file.stream as unknown as string);
      },
    });
  };
}

/** How long a refused upload's connection keeps being read (and discarded) after the answer. */
const LINGER_MS = 2000;

/**
 * A refusal before the whole body arrived closes the connection, so the client stops sending a
 * file nobody will read. The close lingers, as web servers' do: the rest of the body is read and
 * discarded for a moment after the answer, because a socket destroyed while the client is still
 * sending is reset, and a reset can make the client lose the answer it had not read yet.
 */
function stopReading(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete) return;
  reply.header('connection', 'close');
  request.raw.unpipe();
  request.raw.resume();
  // Node ends a "Connection: close" response with destroySoon(): end, then destroy at once.
  const socket = request.raw.socket as Socket & { destroySoon?: () => void };
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
