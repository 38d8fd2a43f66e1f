/** Leads: contact details visitors gave, searchable, with a CSV export of what the search shows. */
import { useState } from 'preact/hooks';
import { api, urlOf } from '../../api/client.ts';
import { useLoad } from '../../hooks.ts';
import { Link } from '../../components/link.tsx';
import { Button, DataTable, Empty, ErrorNotice, Loading, PageHeader, Section, TextField, Time } from '../../components/ui.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';

const PAGE = 50;

export function LeadsScreen({ bot }: BotScreenProps) {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const leads = useLoad(() => api('dashboardListLeads', { path: { bot_id: bot.id }, query: { q: search, limit: PAGE, offset } }), [bot.id, search, offset]);
  const csv = urlOf('dashboardExportLeads', { path: { bot_id: bot.id }, query: { q: search } });
  return (
    <>
      <PageHeader
        title="Leads"
        description="Contact details visitors gave the bot."
        actions={
          <a class="btn btn-secondary" href={csv} download>
            Export CSV
          </a>
        }
      />
      <Section title="Search">
        <form
          class="inline-form"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            setOffset(0);
            setSearch(query.trim());
          }}
        >
          <TextField label="Name, email or phone" type="search" value={query} onValue={setQuery} />
          <Button type="submit">Search</Button>
        </form>
      </Section>
      <Section title={leads.data ? `${leads.data.total} lead${leads.data.total === 1 ? '' : 's'}${search ? ` matching “${search}”` : ''}` : 'Leads'}>
        <ErrorNotice error={leads.error} />
        {!leads.data ? (
          <Loading />
        ) : leads.data.leads.length === 0 ? (
          <Empty title="No leads">{!search && <p>Turn on lead capture in Settings: the bot then asks visitors for their details.</p>}</Empty>
        ) : (
          <>
            <DataTable label="Leads" columns={['Name', 'Email', 'Phone', 'Other', 'Captured', 'Conversation']}>
            {leads.data.leads.map((lead) => (
              <tr key={lead.id}>
                <th scope="row">{lead.name || <span class="muted">—</span>}</th>
                <td>{lead.email ? <a href={`mailto:${lead.email}`}>{lead.email}</a> : <span class="muted">—</span>}</td>
                <td>{lead.phone ? <a href={`tel:${lead.phone}`}>{lead.phone}</a> : <span class="muted">—</span>}</td>
                <td>
                  {Object.entries(lead.extra).map(([k, v]) => (
                    <span key={k} class="cell-preview">
                      {k}: {v}
                    </span>
                  ))}
                </td>
                <td>
                  <Time at={lead.created_at} />
                </td>
                <td>
                  <Link href={`/app/bots/${bot.id}/inbox/${encodeURIComponent(lead.session_id)}`}>Open</Link>
                </td>
              </tr>
            ))}
            </DataTable>
            <div class="pager">
              <Button small disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                Previous
              </Button>
              <span class="hint">
                {offset + 1}–{offset + leads.data.leads.length} of {leads.data.total}
              </span>
              <Button small disabled={offset + PAGE >= leads.data.total} onClick={() => setOffset(offset + PAGE)}>
                Next
              </Button>
            </div>
          </>
        )}
      </Section>
    </>
  );
}
