/**
 * An incremental Server-Sent Events parser (the WHATWG event-stream format) for a response body
 * read with fetch: EventSource cannot POST, and the chat stream is a POST.
 */

/** One dispatched event: its name (`message` when none was given) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/** Parses text as it arrives, in chunks cut anywhere, and hands each complete event to `onEvent`. */
export function createSseParser(onEvent: (event: SseEvent) => void): { feed(chunk: string): void } {
  let buffer = '';
  let name = '';
  let data: string[] = [];

  function dispatch(): void {
    if (data.length > 0) onEvent({ event: name || 'message', data: data.join('\n') });
    name = '';
    data = [];
  }

  function readLine(line: string): void {
    if (line === '') return dispatch();
    // Comment lines are the server's keep-alives.
    if (line.charCodeAt(0) === 0x3a) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }

  return {
    feed(chunk: string): void {
      buffer += chunk;
      let lineStart = 0;
      let i = 0;
      while (i < buffer.length) {
        const c = buffer.charCodeAt(i);
        if (c !== 0x0a && c !== 0x0d) {
          i++;
          continue;
        }
        // A CR that ends the chunk may be the first half of a CRLF: wait for the next chunk.
        if (c === 0x0d && i + 1 === buffer.length) break;
        readLine(buffer.slice(lineStart, i));
        i += c === 0x0d && buffer.charCodeAt(i + 1) === 0x0a ? 2 : 1;
        lineStart = i;
      }
      buffer = buffer.slice(lineStart);
    },
  };
}
