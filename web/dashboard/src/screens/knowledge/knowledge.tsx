/**
 * Knowledge: what the bot answers from. Add text, web pages (their status changes live until they
 * are indexed) and documents; set a page's re-crawl schedule; delete a source; ask the search
 * preview what the bot would find for a question; manage the product catalog.
 */
import { api, type ResponseOf } from '../../api/client.ts';
import { useInterval, useLoad } from '../../hooks.ts';
import { ConfirmButton } from '../../components/dialog.tsx';
import { Badge, DataTable, Empty, ErrorNotice, Loading, PageHeader, Section, Time } from '../../components/ui.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';
import { AddSources } from './add-sources.tsx';
import { SearchPreview } from './search-preview.tsx';
import { CatalogSection } from './catalog.tsx';
import { ScheduleSelect } from './schedule-select.tsx';

export type Source = ResponseOf<'dashboardListKnowledge'>['sources'][number];

const STATUS_TONE: Record<string, 'good' | 'warn' | 'bad' | 'info'> = { trained: 'good', ready: 'good', processing: 'warn', failed: 'bad' };
const STATUS_LABEL: Record<string, string> = { trained: 'Indexed', ready: 'Indexed', processing: 'Fetching…', failed: 'Failed' };
const TYPE_LABEL: Record<string, string> = { text: 'Text', url: 'Web page', file: 'Document' };

export function KnowledgeScreen({ bot }: BotScreenProps) {
  const sources = useLoad(() => api('dashboardListKnowledge', { path: { bot_id: bot.id } }), [bot.id]);
  const pending = (sources.data?.sources ?? []).some((s) => s.status === 'processing');
  // A page is fetched in the background: follow it until it is indexed or has failed.
  useInterval(() => void sources.reload(), 1500, pending);

  const added = (source: Source) =>
    sources.setData((previous) => ({ sources: [source, ...(previous?.sources ?? []).filter((s) => s.id !== source.id)], total: (previous?.total ?? 0) + 1 }));
  const replaced = (source: Source) => sources.setData((previous) => previous && { ...previous, sources: previous.sources.map((s) => (s.id === source.id ? source : s)) });

  return (
    <>
      <PageHeader title="Knowledge" description={`What ${bot.name} answers from. Every change counts at once.`} />
      <AddSources botId={bot.id} onAdded={added} />
      <Section title="Sources" description={sources.data ? `${sources.data.total} source${sources.data.total === 1 ? '' : 's'}` : undefined}>
        <ErrorNotice error={sources.error} />
        {!sources.data ? (
          <Loading />
        ) : sources.data.sources.length === 0 ? (
          <Empty title="No knowledge yet">
            <p>Add a text, a web page or a document above: the bot answers only from what it has.</p>
          </Empty>
        ) : (
          <DataTable label="Knowledge sources" columns={['Name', 'Type', 'Status', 'Size', 'Re-crawl', 'Added']} actions>
          {sources.data.sources.map((source) => (
            <tr key={source.id} data-source={source.name}>
              <th scope="row" class="cell-name">
                {source.url ? (
                  <a href={source.url} target="_blank" rel="noopener noreferrer">
                    {source.name}
                  </a>
                ) : (
                  source.name
                )}
                {source.content_preview && <span class="cell-preview">{source.content_preview}</span>}
              </th>
              <td>{TYPE_LABEL[source.type] ?? source.type}</td>
              <td>
                <span data-status={source.status}>
                  <Badge tone={STATUS_TONE[source.status] ?? 'info'}>{STATUS_LABEL[source.status] ?? source.status}</Badge>
                </span>
                {source.status_detail && <span class="cell-detail">{source.status_detail}</span>}
              </td>
              <td>{source.char_count.toLocaleString()} characters</td>
              <td>
                {source.type === 'url' ? (
                  <ScheduleSelect botId={bot.id} source={source} onChange={replaced} />
                ) : (
                  <span class="muted">—</span>
                )}
                {source.last_crawled_at && (
                  <span class="cell-detail">
                    Last fetched <Time at={source.last_crawled_at} />
                  </span>
                )}
              </td>
              <td>
                <Time at={source.created_at} />
              </td>
              <td>
                <ConfirmButton
                  small
                  label="Delete"
                  ariaLabel={`Delete ${source.name}`}
                  title={`Delete “${source.name}”?`}
                  message={<p>The bot stops answering from it at once. This cannot be undone.</p>}
                  confirmLabel="Delete source"
                  onConfirm={async () => {
                    await api('dashboardDeleteKnowledge', { path: { bot_id: bot.id, source_id: source.id } });
                    sources.setData((previous) => ({ sources: (previous?.sources ?? []).filter((s) => s.id !== source.id), total: Math.max(0, (previous?.total ?? 1) - 1) }));
                  }}
                />
              </td>
            </tr>
          ))}
          </DataTable>
        )}
      </Section>
      <SearchPreview botId={bot.id} />
      <CatalogSection botId={bot.id} />
    </>
  );
}
