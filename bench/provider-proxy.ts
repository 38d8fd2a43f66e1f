/**
 * What the bench compares Parley's provider path with: the smallest useful chat service, a Node
 * server that takes `{text}`, asks the provider (streaming, as Parley does) and answers `{reply}`.
 */
import http from 'node:http';

const upstream = `${process.env.UPSTREAM}/chat/completions`;

http
  .createServer(async (req, res) => {
    let raw = '';
    for await (const part of req) raw += part;
    const { text } = JSON.parse(raw) as { text: string };
    const answer = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: text }] }),
    });
    let reply = '';
    for (const line of (await answer.text()).split('\n')) {
      if (line.startsWith('data: {')) reply += JSON.parse(line.slice(6)).choices[0].delta.content ?? '';
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ reply }));
  })
  .listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
