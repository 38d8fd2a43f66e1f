/**
 * Aborts a provider call that sends no byte for a while: the first byte and every gap between
 * bytes count (PARLEY_PROVIDER_TIMEOUT_MS). Time spent by the consumer on a chunk does not.
 */

/** Watches one provider call; `fetch` is the fetch to give the provider SDK. */
export class InactivityWatchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private paused = false;
  private stopped = false;
  /** True once the watchdog gave up waiting. */
  timedOut = false;
  /** True once any byte of a response body arrived. */
  receivedBody = false;

  constructor(readonly timeoutMs: number) {}

  /** Aborted when the time-out fires or `cancel()` is called. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** (Re)starts the wait: called at the start, on every byte, and when the consumer asks for more. */
  touch(): void {
    if (this.paused || this.stopped) return;
    // One timer per call, pushed back on each byte: cheaper than a new timer per chunk.
    if (this.timer) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.stop();
      this.controller.abort(new Error(`no data for ${this.timeoutMs} ms`));
    }, this.timeoutMs);
  }

  /** A piece of the response body arrived. */
  bodyArrived(): void {
    this.receivedBody = true;
    this.touch();
  }

  /** Stops counting while the consumer holds a chunk. */
  pause(): void {
    this.paused = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  resume(): void {
    this.paused = false;
    this.touch();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Stops waiting and aborts the call (the consumer went away). */
  cancel(): void {
    this.stop();
    if (!this.controller.signal.aborted) this.controller.abort(new Error('cancelled'));
  }

  /** Wraps `base` so that response headers and every body chunk reset the timer. */
  wrapFetch(base: typeof fetch): typeof fetch {
    return async (input, init) => {
      const response = await base(input, init);
      this.touch();
      if (!response.body) return response;
      const body = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform: (chunk, controller) => {
            this.bodyArrived();
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  }
}
