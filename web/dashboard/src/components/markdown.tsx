/**
 * A message's text as the chat widget shows it, so that the Inbox shows an answer or an operator's
 * reply as the visitor saw it. The rules are the widget's own (web/widget/src/markdown.ts, one place
 * for both apps): a safe subset that builds DOM nodes, text only ever as text, links only http(s).
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { renderMarkdown } from '../../../widget/src/markdown.ts';

export { markdownAsLine } from '../../../widget/src/markdown.ts';

/** The text rendered in a `div` with `class`. */
export function Markdown({ text, class: className }: { text: string; class?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.replaceChildren(renderMarkdown(text));
  }, [text]);
  return <div ref={ref} class={className} />;
}
