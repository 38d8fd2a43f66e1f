/** Fetching a page for URL knowledge: the guarded outbound client, then text extraction. */
import { createGuardedFetch, type GuardedFetchOptions } from '../../platform/outbound/guarded-fetch.ts';
import { UnprocessableError } from '../../platform/errors.ts';
import { UnsupportedContentError } from './extract/extract-text.ts';
import { extractTextIsolated } from './extract/isolated-extract.ts';
import type { FetchedPage, PageFetcher } from './knowledge.service.ts';

export interface ClosablePageFetcher extends PageFetcher {
  close(): Promise<void>;
}

/** A page fetcher that refuses private addresses unless `allowPrivateNetwork` (PARLEY_ALLOW_PRIVATE_NETWORK). */
export function createPageFetcher(options: GuardedFetchOptions): ClosablePageFetcher {
  const guardedFetch = createGuardedFetch(options);
  const fetchPage = async (url: string): Promise<FetchedPage> => {
    const res = await guardedFetch(url, { headers: { accept: 'text/html, application/pdf, text/plain;q=0.9, */*;q=0.5' } });
    if (!res.ok) return { ok: false, kind: 'unreachable', detail: res.detail };
    try {
      const { title, text } = await extractTextIsolated({ body: res.body, contentType: res.contentType, url: res.url });
      if (!text.trim()) return { ok: false, kind: 'no_text', detail: 'the page has no readable text' };
      return { ok: true, url: res.url, title, text };
    } catch (err) {
      // Not a document type, or a damaged one: the page was fetched but gives no usable text.
      if (err instanceof UnsupportedContentError || err instanceof UnprocessableError) return { ok: false, kind: 'no_text', detail: err.detail };
      throw err;
    }
  };
  return Object.assign(fetchPage, { close: () => guardedFetch.close() });
}
