/**
 * A time-series line chart (uPlot, drawn on a canvas) that follows its container's width, with the
 * same numbers as a table for screen readers and keyboards (uPlot's canvas says nothing to them).
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export interface ChartSeries {
  label: string;
  color: string;
  values: number[];
}

export function Chart({ title, dates, series, height = 220 }: { title: string; dates: string[]; series: ChartSeries[]; height?: number }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const x = dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
        axes: [{ stroke: '#475569', grid: { stroke: '#e2e8f0' } }, { stroke: '#475569', grid: { stroke: '#e2e8f0' }, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')) }],
        series: [{ label: 'Day' }, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: dates.length <= 31 } }))],
        legend: { show: true },
      },
      [x, ...series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [dates, series, height]);

  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} class="chart-canvas" aria-hidden="true" />
      <details class="chart-table">
        <summary>Show {title.toLowerCase()} as a table</summary>
        <div class="table-wrap">
          <table class="table compact">
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                {series.map((s) => (
                  <th key={s.label} scope="col">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {dates.map((date, i) => (
                <tr key={date}>
                  <th scope="row">{date}</th>
                  {series.map((s) => (
                    <td key={s.label}>{s.values[i]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
