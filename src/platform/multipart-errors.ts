/**
 * The multipart parser's failures (@fastify/multipart over busboy) as domain errors, for every route
 * that reads a form: a form that ends before its closing boundary, a malformed part, too many parts
 * or a file over the limit is the client's mistake, never a 500 or a wait.
 */
import { PayloadTooLargeError, ValidationError } from './errors.ts';

export interface MultipartLimits {
  maxBytes: number;
  maxFields: number;
}

export function fileTooLarge(maxBytes: number): PayloadTooLargeError {
  const error = new PayloadTooLargeError(`The file is larger than ${maxBytes} bytes (PARLEY_MAX_UPLOAD_BYTES)`);
  // Whatever else is on its way is refused too: the connection closes once the answer is sent.
  error.headers.connection = 'close';
  return error;
}

/** The form ended (the request body is complete) before the file part or the closing boundary did. */
export function truncatedForm(): ValidationError {
  return new ValidationError('Malformed multipart body: the form ends before its closing boundary');
}

/** The parser's error as a domain error, or the error itself when it is not the parser's. */
export function multipartError(err: unknown, { maxBytes, maxFields }: MultipartLimits): unknown {
  switch ((err as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(maxBytes);
    case 'FST_FILES_LIMIT':
      return new ValidationError("only one file may be sent, as field 'file'");
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new ValidationError(`too many form fields (at most ${maxFields})`);
    case 'FST_PROTO_VIOLATION':
      return new ValidationError('invalid form field name');
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return truncatedForm();
  }
  // Busboy's parse errors ("Part terminated early …", "Malformed part header", …).
  if (err instanceof Error && !('status' in err) && !('code' in err) && /form|part|boundary|multipart/i.test(err.message)) {
    return /terminated early|unexpected end/i.test(err.message) ? truncatedForm() : new ValidationError(`Malformed multipart body: ${err.message}`);
  }
  return err;
}
