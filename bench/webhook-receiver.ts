/**
 * The webhook receiver of `npm run bench`, a child process: it answers every POST with 200 at once
 * and notes, per delivery, the time from the event (the envelope's `timestamp`, taken in the
 * transaction that recorded it) to the moment its request arrived. `GET /stats` reports them,
 * `POST /reset` starts over (`?lags=0`: count only, without reading the bodies, so that the
 * receiver takes as little as it can of a machine it shares with the service). Reads HOST and PORT
 * from the environment.
 */
import http from 'node:http';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3002);
let received = 0;
let lags: number[] = [];
let firstAt = 0;
let lastAt = 0;
let measureLags = true;

const server = http.createServer((req, res) => {
  const arrived = Date.now();
  if (req.method === 'GET' && req.url === '/stats') {
    const sorted = [...lags].sort((a, b) => a - b);
    const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received, p50_ms: at(0.5), p95_ms: at(0.95), first_at: firstAt, last_at: lastAt }));
    return;
  }
  if (req.method === 'POST' && req.url?.startsWith('/reset')) {
    measureLags = !req.url.includes('lags=0');
    received = 0;
    lags = [];
    firstAt = lastAt = 0;
    res.writeHead(200).end('{}');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => measureLags && chunks.push(c));
  req.on('end', () => {
    received++;
    firstAt ||= arrived;
    lastAt = arrived;
    if (measureLags) recordLag(arrived, chunks);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
/** The time from the event in the body to `arrived`; a body that is not an event is only counted. */
function recordLag(arrived: number, chunks: Buffer[]): void {
  try {
    const timestamp = Date.parse((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string }).timestamp);
    if (Number.isFinite(timestamp)) lags.push(arrived - timestamp);
  } catch {
    // not JSON
  }
}

server.keepAliveTimeout = 60_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
server.listen(port, host);
