/** How the inbox names a visitor: a name or email from the metadata the site sent, else a short id. */
export function visitorLabel(session: { visitor_id: string | null; session_id: string; metadata: Record<string, unknown> | null }): string {
  const meta = session.metadata ?? {};
  for (const key of ['name', 'email', 'user', 'username']) {
    const value = meta[key];
    if (typeof value === 'string' && value.trim()) return value.trim().slice(0, 60);
  }
  const id = session.visitor_id ?? session.session_id;
  return `Visitor ${id.slice(0, 8)}`;
}
