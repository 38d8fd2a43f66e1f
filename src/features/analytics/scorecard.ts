/**
 * The operational scorecard (interface.md `GET /api/admin/analytics/scorecard`): five pillars
 * scored 0 to 100 from a bot's counters over a window, weighted into a composite, a grade, a status
 * and prioritised recommendations. Pure: the numbers in, the card out. The formulas are the
 * README's "Scorecard" section; keep the two in step.
 */
import { LATENCY_TARGET_MS, type Counts } from './analytics-counters.ts';

export const PILLAR_WEIGHTS = { conversion: 0.25, engagement: 0.2, accuracy: 0.25, reliability: 0.15, satisfaction: 0.15 } as const;
export type Pillar = keyof typeof PILLAR_WEIGHTS;

/** Full marks: one lead per ten sessions. */
export const TARGET_LEAD_RATE = 0.1;
/** Full marks: three visitor messages per session, and half the sessions multi-turn. */
export const TARGET_MESSAGES_PER_SESSION = 3;
export const TARGET_MULTI_TURN_SHARE = 0.5;
/** Satisfaction starts from this many neutral votes (half up, half down), so a few ratings cannot swing it. */
export const NEUTRAL_PRIOR_VOTES = 5;
/** The score of a pillar with nothing to judge yet (no answers). */
export const NEUTRAL_SCORE = 50;
/** Pillars under this get a recommendation. */
const RECOMMEND_BELOW = 80;

export const GRADE_NAMES = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'D', 'F'] as const;
export type Grade = (typeof GRADE_NAMES)[number];

/** Lowest composite for each grade, best first. */
const GRADES: ReadonlyArray<[number, Grade]> = [
  [97, 'A+'], [93, 'A'], [90, 'A-'], [87, 'B+'], [83, 'B'], [80, 'B-'], [77, 'C+'], [70, 'C'], [60, 'D'], [0, 'F'],
];
const STATUSES: ReadonlyArray<[number, string]> = [
  [90, 'Exceptional'], [80, 'High Performing'], [70, 'Performing'], [60, 'Needs Improvement'], [0, 'At Risk'],
];

export interface ScorecardInput {
  counts: Counts;
  days: number;
  leadCaptureEnabled: boolean;
}

export interface Scorecard {
  period_days: number;
  overall_grade: Grade;
  composite_score: number;
  status: string;
  pillars: Record<Pillar, { score: number; weight: string }>;
  recommendations: string[];
  /** The measurements behind the pillars. */
  metrics: {
    sessions: number;
    user_messages: number;
    multi_turn_sessions: number;
    leads: number;
    bot_answers: number;
    unanswered_answers: number;
    failed_answers: number;
    slow_answers: number;
    feedback_up: number;
    feedback_down: number;
  };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const round1 = (x: number) => Math.round(x * 10) / 10;
const percent = (x: number) => `${Math.round(x * 100)}%`;

/** Each pillar's score from the counts (the README's formulas). */
export function pillarScores(c: Counts): Record<Pillar, number> {
  const sessions = c.sessions;
  const judged = c.bot_answers;
  const attempts = c.bot_answers + c.failed_answers;
  return {
    conversion: sessions === 0 ? 0 : 100 * clamp01(c.leads / sessions / TARGET_LEAD_RATE),
    engagement:
      sessions === 0
        ? 0
        : 100 * (0.5 * clamp01(c.user_messages / sessions / TARGET_MESSAGES_PER_SESSION) + 0.5 * clamp01(c.multi_turn_sessions / sessions / TARGET_MULTI_TURN_SHARE)),
    accuracy: judged === 0 ? NEUTRAL_SCORE : 100 * clamp01(1 - (c.unanswered_answers + c.feedback_down) / judged),
    reliability: attempts === 0 ? NEUTRAL_SCORE : 100 * (0.7 * (c.bot_answers / attempts) + 0.3 * (judged === 0 ? 0 : (judged - c.slow_answers) / judged)),
    satisfaction: (100 * (c.feedback_up + NEUTRAL_PRIOR_VOTES / 2)) / (c.feedback_up + c.feedback_down + NEUTRAL_PRIOR_VOTES),
  };
}

export function gradeOf(composite: number): Grade {
  return GRADES.find(([min]) => composite >= min)![1];
}

export function statusOf(composite: number): string {
  return STATUSES.find(([min]) => composite >= min)![1];
}

/** What to do about a weak pillar, in words that name the numbers. */
function actionsFor(pillar: Pillar, c: Counts, input: ScorecardInput): string[] {
  const window = `in the last ${input.days} day${input.days === 1 ? '' : 's'}`;
  switch (pillar) {
    case 'accuracy': {
      const actions: string[] = [];
      if (c.bot_answers === 0) actions.push(`The bot has not answered any question ${window}; accuracy is neutral until it does.`);
      if (c.unanswered_answers > 0) {
        actions.push(`Add knowledge about the ${c.unanswered_answers} question${c.unanswered_answers === 1 ? '' : 's'} the bot could not answer ${window} (the dashboard's unanswered questions list them, most frequent first).`);
      }
      if (c.feedback_down > 0) actions.push(`Review the ${c.feedback_down} answer${c.feedback_down === 1 ? '' : 's'} visitors rated down and correct the knowledge behind them.`);
      return actions;
    }
    case 'conversion':
      if (!input.leadCaptureEnabled) return [`Turn on lead capture: ${c.sessions} session${c.sessions === 1 ? '' : 's'} ${window} left no contact details.`];
      return [`${c.leads} lead${c.leads === 1 ? '' : 's'} from ${c.sessions} session${c.sessions === 1 ? '' : 's'} (${percent(c.sessions ? c.leads / c.sessions : 0)}, target ${percent(TARGET_LEAD_RATE)}): ask for fewer lead fields, or offer a meeting link.`];
    case 'engagement': {
      const perSession = c.sessions ? c.user_messages / c.sessions : 0;
      return [
        `Visitors send ${perSession.toFixed(1)} messages per session and ${percent(c.sessions ? c.multi_turn_sessions / c.sessions : 0)} ask a second question: make the welcome message invite a specific question.`,
      ];
    }
    case 'reliability': {
      const actions: string[] = [];
      if (c.failed_answers > 0) actions.push(`${c.failed_answers} visitor message${c.failed_answers === 1 ? '' : 's'} got no answer because the engine failed: check the provider key and model in the bot's settings.`);
      if (c.slow_answers > 0) actions.push(`${c.slow_answers} answer${c.slow_answers === 1 ? '' : 's'} took longer than ${LATENCY_TARGET_MS / 1000} s: choose a faster model.`);
      if (actions.length === 0) actions.push(`Reliability is neutral until the bot answers questions ${window}.`);
      return actions;
    }
    case 'satisfaction': {
      const rated = c.feedback_up + c.feedback_down;
      const actions: string[] = [];
      if (c.feedback_down > 0) {
        actions.push(`${c.feedback_down} of ${rated} rated answer${rated === 1 ? ' was' : 's were'} rated down: read them in the inbox and fix the knowledge they came from.`);
      }
      if (rated < 10) actions.push(`Only ${rated} answer${rated === 1 ? ' was' : 's were'} rated ${window}: the score leans on a neutral prior until visitors rate more (the widget shows thumbs on each answer).`);
      return actions;
    }
  }
}

export function buildScorecard(input: ScorecardInput): Scorecard {
  const c = input.counts;
  const scores = pillarScores(c);
  const composite = round1((Object.keys(PILLAR_WEIGHTS) as Pillar[]).reduce((sum, p) => sum + PILLAR_WEIGHTS[p] * scores[p], 0));
  const pillars = Object.fromEntries(
    (Object.keys(PILLAR_WEIGHTS) as Pillar[]).map((p) => [p, { score: round1(scores[p]), weight: `${Math.round(PILLAR_WEIGHTS[p] * 100)}%` }]),
  ) as Scorecard['pillars'];
  const noTraffic = c.sessions === 0 && c.user_messages === 0;

  let recommendations: string[];
  if (noTraffic) {
    recommendations = [
      `No conversations in the last ${input.days} day${input.days === 1 ? '' : 's'}: put the widget on your site or send messages through the API; every pillar is scored from real conversations.`,
    ];
  } else {
    // Weakest first by what each pillar costs the composite.
    const weak = (Object.keys(PILLAR_WEIGHTS) as Pillar[])
      .filter((p) => scores[p] < RECOMMEND_BELOW)
      .sort((a, b) => PILLAR_WEIGHTS[b] * (100 - scores[b]) - PILLAR_WEIGHTS[a] * (100 - scores[a]));
    recommendations = weak.flatMap((p) => actionsFor(p, c, input));
    if (recommendations.length === 0) recommendations = ['Every pillar scores 80 or more: keep the knowledge current as your products and policies change.'];
  }

  return {
    period_days: input.days,
    overall_grade: gradeOf(composite),
    composite_score: composite,
    status: noTraffic ? 'No traffic' : statusOf(composite),
    pillars,
    recommendations,
    metrics: {
      sessions: c.sessions,
      user_messages: c.user_messages,
      multi_turn_sessions: c.multi_turn_sessions,
      leads: c.leads,
      bot_answers: c.bot_answers,
      unanswered_answers: c.unanswered_answers,
      failed_answers: c.failed_answers,
      slow_answers: c.slow_answers,
      feedback_up: c.feedback_up,
      feedback_down: c.feedback_down,
    },
  };
}
