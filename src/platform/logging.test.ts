import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loggedUrl } from './logging.ts';

test('a signed link is logged without its signature, every other part as it is', () => {
  assert.equal(loggedUrl('/api/widget/media/abc?expires=1767225600&signature=s3cr3t'), '/api/widget/media/abc?expires=1767225600&signature=%5Bredacted%5D');
  assert.equal(loggedUrl('/api/v1/leads?limit=5'), '/api/v1/leads?limit=5');
  assert.equal(loggedUrl('/healthz'), '/healthz');
});
