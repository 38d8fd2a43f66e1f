/**
 * The HTML of the authorization endpoint: the consent page and the page explaining a request that
 * cannot be sent back to its client. Semantic HTML only: the service's `Content-Security-Policy:
 * default-src 'none'` blocks every script and stylesheet, and the form needs neither. Every text
 * that comes from a client or a user is escaped.
 */
import { SCOPE_DESCRIPTIONS } from './oauth-rules.ts';
import type { AuthorizationRequest } from './oauth.service.ts';
import { escapeHtml } from '../../platform/html.ts';


export interface ConsentPageInput {
  request: AuthorizationRequest;
  csrfToken: string;
  user: { email: string };
  account: { name: string };
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)} · Parley</title>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Where the user will be sent after deciding, as a person reads it (scheme and host). */
function destinationOf(redirectUri: string): string {
  const url = new URL(redirectUri);
  return `${url.protocol}//${url.host}`;
}

/** The consent page: who asks, for which account, what each scope allows, and where the answer goes. */
export function renderConsentPage({ request, csrfToken, user, account }: ConsentPageInput): string {
  const client = escapeHtml(request.client.name);
  const scopes = request.scopes.map((scope) => `<li><strong>${scope}</strong>: ${escapeHtml(SCOPE_DESCRIPTIONS[scope])}</li>`).join('\n');
  const hidden = Object.entries(request.params)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return page(
    `Authorize ${request.client.name}`,
    `<h1>Authorize ${client}?</h1>
<p>The application <strong>${client}</strong> asks to use your Parley account <strong>${escapeHtml(account.name)}</strong>.
You are signed in as ${escapeHtml(user.email)}.</p>
<h2>It will be able to</h2>
<ul>
${scopes}
</ul>
<p>It acts for the whole account, with these permissions only, until you or the application revoke its access.
After you decide, you will be sent back to <strong>${escapeHtml(destinationOf(request.redirectUri))}</strong>.</p>
<form method="post" action="/oauth/authorize">
${hidden}
<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

/** A page for an authorization request that cannot be answered by redirecting back to the client. */
export function renderErrorPage(status: number, detail: string): string {
  return page(
    'Authorization failed',
    `<h1>This authorization request cannot be completed</h1>
<p>${escapeHtml(detail)}</p>
<p>${
      status === 400
        ? 'The application that sent you here made a request Parley cannot trust, so you have not been sent back to it. Tell its developers.'
        : 'Go back to the application and start again.'
    }</p>`,
  );
}
