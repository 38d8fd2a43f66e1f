/**
 * Analytics: messages, conversations and leads per day as charts, the scorecard (grade, the five
 * pillars, recommendations), and the questions the bot could not answer, over a chosen period.
 */
import { useMemo, useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import { useLoad } from '../../hooks.ts';
import { Chart, type ChartSeries } from '../../components/chart.tsx';
import { Badge, Empty, ErrorNotice, Loading, PageHeader, Section, Select, Time } from '../../components/ui.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';

type Scorecard = ResponseOf<'getScorecard'>;

const PERIODS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
];

const PILLARS: Array<{ key: keyof Scorecard['pillars']; label: string; meaning: string }> = [
  { key: 'conversion', label: 'Conversion', meaning: 'leads per conversation' },
  { key: 'engagement', label: 'Engagement', meaning: 'messages per conversation, follow-up questions' },
  { key: 'accuracy', label: 'Accuracy', meaning: 'answers from the knowledge, none rated down' },
  { key: 'reliability', label: 'Reliability', meaning: 'no engine failures, answers within 3 s' },
  { key: 'satisfaction', label: 'Satisfaction', meaning: "visitors' ratings" },
];

export function AnalyticsScreen({ bot }: BotScreenProps) {
  const [days, setDays] = useState('30');
  const daily = useLoad(() => api('dashboardDailyAnalytics', { path: { bot_id: bot.id }, query: { days: Number(days) } }), [bot.id, days]);
  const scorecard = useLoad(() => api('getScorecard', { query: { bot_id: bot.id, days: Number(days) } }), [bot.id, days]);
  const unanswered = useLoad(() => api('dashboardUnansweredQuestions', { path: { bot_id: bot.id }, query: { days: Number(days), limit: 20 } }), [bot.id, days]);

  const charts = useMemo(() => {
    const series = daily.data?.series ?? [];
    const dates = series.map((d) => d.date);
    const pick = (label: string, color: string, f: (d: (typeof series)[number]) => number): ChartSeries => ({ label, color, values: series.map(f) });
    return {
      dates,
      messages: [pick('Visitor messages', '#2563eb', (d) => d.user_messages), pick('Bot answers', '#0f766e', (d) => d.bot_messages)],
      sessions: [pick('Conversations', '#7c3aed', (d) => d.sessions)],
      leads: [pick('Leads', '#c2410c', (d) => d.leads)],
      totals: series.reduce((t, d) => ({ messages: t.messages + d.user_messages + d.bot_messages, sessions: t.sessions + d.sessions, leads: t.leads + d.leads }), { messages: 0, sessions: 0, leads: 0 }),
    };
  }, [daily.data]);

  return (
    <>
      <PageHeader title="Analytics" description="Days are UTC days, today included." actions={<Select label="Period" value={days} onValue={setDays} options={PERIODS} />} />
      <Section title="Activity">
        <ErrorNotice error={daily.error} />
        {!daily.data ? (
          <Loading />
        ) : (
          <>
            <dl class="stat-row">
              <div>
                <dt>Messages</dt>
                <dd>{charts.totals.messages.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Conversations</dt>
                <dd>{charts.totals.sessions.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Leads</dt>
                <dd>{charts.totals.leads.toLocaleString()}</dd>
              </div>
            </dl>
            <div class="chart-grid">
              <Chart title="Messages" dates={charts.dates} series={charts.messages} />
              <Chart title="Conversations" dates={charts.dates} series={charts.sessions} />
              <Chart title="Leads" dates={charts.dates} series={charts.leads} />
            </div>
          </>
        )}
      </Section>
      <ScorecardSection state={scorecard} />
      <Section title="Questions the bot could not answer" description="Most asked first. Add knowledge about them, then try them in Knowledge › Test a question.">
        <ErrorNotice error={unanswered.error} />
        {!unanswered.data ? (
          <Loading />
        ) : unanswered.data.questions.length === 0 ? (
          <Empty title="None in this period" />
        ) : (
          <ol class="unanswered">
            {unanswered.data.questions.map((q) => (
              <li key={q.question}>
                <span class="question">{q.question}</span>{' '}
                <span class="hint">
                  asked {q.count} time{q.count === 1 ? '' : 's'}, last <Time at={q.last_asked_at} />
                </span>
              </li>
            ))}
          </ol>
        )}
      </Section>
    </>
  );
}

function ScorecardSection({ state }: { state: { data: Scorecard | undefined; error: string | null } }) {
  const card = state.data;
  return (
    <Section title="Scorecard" description="How the bot does on five pillars, weighted into one grade.">
      <ErrorNotice error={state.error} />
      {!card ? (
        <Loading />
      ) : (
        <div class="scorecard">
          <div class="grade" data-grade={card.overall_grade}>
            <span class="grade-letter">{card.overall_grade}</span>
            <span class="grade-score">{card.composite_score.toFixed(1)} / 100</span>
            <Badge tone={card.composite_score >= 80 ? 'good' : card.composite_score >= 60 ? 'warn' : 'bad'}>{card.status}</Badge>
          </div>
          <ul class="pillars">
            {PILLARS.map((p) => {
              const pillar = card.pillars[p.key];
              return (
                <li key={p.key}>
                  <p>
                    <strong>{p.label}</strong> <span class="hint">({pillar.weight}: {p.meaning})</span>
                    <span class="pillar-score">{pillar.score.toFixed(1)}</span>
                  </p>
                  <meter min={0} max={100} low={60} high={80} optimum={100} value={pillar.score} aria-label={`${p.label} score`} />
                </li>
              );
            })}
          </ul>
          {card.recommendations.length > 0 && (
            <div class="recommendations">
              <h3>Recommendations</h3>
              <ol>
                {card.recommendations.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ol>
            </div>
          )}
        </div>
      )}
    </Section>
  );
}
