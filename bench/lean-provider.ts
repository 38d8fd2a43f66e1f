/**
 * The bench's stand-in for an LLM provider, in a process of its own: an OpenAI-compatible
 * `POST /v1/chat/completions` that streams the same three chunks at once to every request and keeps
 * nothing (the tests' fake provider records every request, which a load run would pile up).
 */
import http from 'node:http';

const chunk = (content: string | null, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;
export const LEAN_PROVIDER_ANSWER = 'The answer comes at once.';
const STREAM = chunk('The answer ') + chunk('comes ') + chunk('at once.') + chunk(null, 'stop') + 'data: [DONE]\n\n';

http
  .createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(STREAM);
    });
  })
  .listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
