/**
 * The dashboard's only network code for JSON calls: `api(operationId, {path, query, body})`, typed
 * by `schema.gen.ts` (generated from the service's OpenAPI document), so that a call the API does
 * not offer, or a field it does not have, fails the type check. The session is the HttpOnly
 * `parley_session` cookie the login sets; nothing is kept in storage. Writes carry the page's
 * Origin, which the service checks.
 */
import { OPERATIONS, type Operations } from './schema.gen.ts';

export type OperationId = keyof Operations;
export type ResponseOf<K extends OperationId> = Operations[K]['response'];
export type BodyOf<K extends OperationId> = Operations[K]['body'];
export type QueryOf<K extends OperationId> = Operations[K]['query'];

type Part<Name extends string, T, Optional extends boolean = false> = [T] extends [never]
  ? {}
  : Optional extends true
    ? { [P in Name]?: T }
    : { [P in Name]: T };

export type ArgsOf<K extends OperationId> = Part<'path', Operations[K]['path']> &
  Part<'query', Operations[K]['query'], true> &
  Part<'body', Operations[K]['body']>;

/** An answer other than 2xx: its status and the service's `detail`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Called when the session turns out to be gone (401 on a call that needed it). */
let onUnauthorized: () => void = () => {};
export function handleUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

/** The URL of an operation with its path parameters and query filled in. */
export function urlOf<K extends OperationId>(id: K, args: Partial<{ path: object; query: object }> = {}): string {
  const [, template] = OPERATIONS[id];
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = (args.path as Record<string, unknown> | undefined)?.[name];
    if (value === undefined) throw new Error(`${id}: path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(args.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

async function detailOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
  } catch {
    // not JSON: fall through
  }
  return `${res.status} ${res.statusText || 'error'}`;
}

/** Calls an operation; resolves with its success body, or rejects with an ApiError. */
export async function api<K extends OperationId>(
  id: K,
  ...[args]: keyof ArgsOf<K> extends never ? [args?: ArgsOf<K>] : [args: ArgsOf<K>]
): Promise<ResponseOf<K>> {
  const [method] = OPERATIONS[id];
  const parts = (args ?? {}) as { path?: object; query?: object; body?: unknown };
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (parts.body instanceof FormData) {
    init.body = parts.body;
  } else if (parts.body !== undefined) {
    init.body = JSON.stringify(parts.body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(urlOf(id, parts), init);
  } catch {
    throw new ApiError(0, 'The service could not be reached. Check your connection and try again.');
  }
  if (!res.ok) {
    const detail = await detailOf(res);
    if (res.status === 401 && id !== 'login' && id !== 'me') onUnauthorized();
    throw new ApiError(res.status, detail);
  }
  if (res.status === 204) return null as ResponseOf<K>;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as ResponseOf<K>;
}

/**
 * The body field a validation message of the API names (`field 'price' must be number` gives
 * `price`), so that a form can show the message beside that field; null when it names none.
 */
export function fieldNamed(detail: string | null | undefined): string | null {
  const match = detail ? /\bfields? '([^']+)'/.exec(detail) : null;
  return match ? match[1]! : null;
}

/** A user-facing sentence for any failure. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Uploads a form with progress (fetch cannot report upload progress): resolves with the success
 * body of `id`, rejects with an ApiError.
 */
export function upload<K extends OperationId>(
  id: K,
  args: { path: Operations[K]['path']; body: FormData },
  onProgress: (fraction: number) => void,
): Promise<ResponseOf<K>> {
  const [method] = OPERATIONS[id];
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, urlOf(id, { path: args.path as object }));
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'The upload failed: the service could not be reached.'));
    xhr.onload = () => {
      let body: { detail?: unknown } | undefined;
      try {
        body = JSON.parse(xhr.responseText) as { detail?: unknown };
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as ResponseOf<K>);
      } else {
        if (xhr.status === 401) onUnauthorized();
        reject(new ApiError(xhr.status, typeof body?.detail === 'string' ? body.detail : `${xhr.status} ${xhr.statusText}`));
      }
    };
    xhr.send(args.body);
  });
}
