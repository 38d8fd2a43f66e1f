/**
 * The search preview: what a parley-local bot would reply to a question, and the passages it reads,
 * with their sources and scores. Passages are found for nearly any question: the reply tells whether
 * the bot would quote them or say it does not know.
 */
import { useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import { useAction } from '../../hooks.ts';
import { Button, Empty, ErrorNotice, Notice, Section, TextField } from '../../components/ui.tsx';
import { Markdown } from '../../components/markdown.tsx';

type Result = ResponseOf<'dashboardSearchKnowledge'>;

export function SearchPreview({ botId }: { botId: string }) {
  const [question, setQuestion] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const search = useAction(async () => {
    setResult(await api('dashboardSearchKnowledge', { path: { bot_id: botId }, query: { q: question } }));
  });
  const best = result?.passages[0]?.score ?? 1;
  return (
    <Section title="Test a question" description="Shows what the bot would reply to a question and the passages of its knowledge it reads, best first.">
      <form
        class="inline-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (question.trim()) void search.run();
        }}
      >
        <TextField label="Question" type="search" required maxLength={4000} placeholder="How long does delivery take?" value={question} onValue={setQuestion} />
        <Button type="submit" variant="primary" busy={search.busy}>
          Search
        </Button>
      </form>
      <ErrorNotice error={search.error} />
      {result?.reply &&
        (result.reply.kind === 'refusal' ? (
          <Notice kind="warning">
            <strong>The bot would say it does not know:</strong> nothing below answers this closely enough. Add knowledge about it.
          </Notice>
        ) : (
          <Notice kind="success">
            <strong>The bot would reply:</strong>
            <Markdown class="markdown passage-reply" text={result.reply.text} />
          </Notice>
        ))}
      {result &&
        (result.passages.length === 0 ? (
          <Empty title="Nothing found">
            <p>The bot has no passage for this question: it would say it does not know. Add knowledge about it.</p>
          </Empty>
        ) : (
          <ol class="passages" aria-label={`Passages found for “${result.query}”`}>
            {result.passages.map((p, i) => (
              <li key={`${p.source_id}-${i}`} class="passage">
                <p class="passage-source">
                  <strong>{p.source_url ? <a href={p.source_url} target="_blank" rel="noopener noreferrer">{p.source_name}</a> : p.source_name}</strong>
                  {p.heading && <span class="hint"> · {p.heading}</span>}
                  <span class="passage-score" title="Fused rank score; higher is better">
                    score {p.score.toFixed(4)}
                    <meter min={0} max={best} value={p.score} aria-label="Relative score" />
                  </span>
                </p>
                <p class="passage-text">{p.text}</p>
              </li>
            ))}
          </ol>
        ))}
    </Section>
  );
}
