/** Small hooks the screens share: loading data, and running an action with its busy and error state. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from './api/client.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload(): Promise<void>;
  setData(update: T | ((previous: T | undefined) => T | undefined)): void;
}

/** Loads `load()` now and whenever `deps` change; `reload` loads again without clearing what is shown. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const loader = useRef(load);
  loader.current = load;

  const run = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await loader.current();
      if (mine !== generation.current) return;
      setDataState(() => value);
      setError(null);
    } catch (err) {
      if (mine === generation.current) setError(messageOf(err));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    setDataState(undefined);
    void run();
    return () => void generation.current++;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  const setData = useCallback((update: T | ((previous: T | undefined) => T | undefined)) => {
    setDataState((previous) => (typeof update === 'function' ? (update as (p: T | undefined) => T | undefined)(previous) : update));
  }, []);

  return { data, error, loading, reload: run, setData };
}

export interface Action<A extends unknown[]> {
  run(...args: A): Promise<boolean>;
  busy: boolean;
  error: string | null;
  clearError(): void;
}

/** Runs `act`, keeping its busy flag and its failure message; `run` resolves true on success. */
export function useAction<A extends unknown[]>(act: (...args: A) => Promise<unknown>): Action<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const actRef = useRef(act);
  actRef.current = act;
  const run = useCallback(async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await actRef.current(...args);
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { run, busy, error, clearError: () => setError(null) };
}

/** Calls `tick` every `ms` while `active`. */
export function useInterval(tick: () => void, ms: number, active: boolean): void {
  const saved = useRef(tick);
  saved.current = tick;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => saved.current(), ms);
    return () => clearInterval(timer);
  }, [ms, active]);
}
