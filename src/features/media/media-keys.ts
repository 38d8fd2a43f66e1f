/** Storage keys of chat media: generated ids only, `<bot>/<session>/<file>`, so a session's or a bot's files share a prefix. */

/** The storage key of one file of a session. */
export function mediaKey(botId: string, sessionId: string, fileId: string): string {
  return `${botId}/${sessionId}/${fileId}`;
}

/** The key prefix of all of a session's files. */
export function sessionPrefix(botId: string, sessionId: string): string {
  return `${botId}/${sessionId}`;
}
