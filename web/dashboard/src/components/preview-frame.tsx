/**
 * A same-origin frame showing the real widget. The widget's demo page opens the chat and focuses
 * its message box as it loads; in a dashboard screen that would pull the keyboard focus into the
 * frame unasked. So focus that enters the frame without the user (no pointer or key inside it, no
 * Tab on this page) goes back to where it was.
 */
import { useEffect, useRef } from 'preact/hooks';

export function PreviewFrame({ src, title }: { src: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    let invited = false;
    let previous: Element | null = document.activeElement;
    const invite = () => void (invited = true);
    const onLoad = () => {
      invited = false;
      el.contentWindow?.addEventListener('pointerdown', invite, true);
      el.contentWindow?.addEventListener('keydown', invite, true);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Tab') invited = true;
    };
    const onFocusIn = (event: FocusEvent) => {
      if (event.target !== el) previous = event.target as Element;
    };
    const onBlur = () => {
      // The window loses focus to the frame on the next task.
      setTimeout(() => {
        if (document.activeElement !== el || invited) return;
        const back = previous instanceof HTMLElement && previous !== document.body && previous.isConnected ? previous : document.querySelector<HTMLElement>('main h1');
        back?.focus({ preventScroll: true });
      }, 0);
    };
    el.addEventListener('load', onLoad);
    el.addEventListener('pointerdown', invite);
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('focusin', onFocusIn);
    window.addEventListener('blur', onBlur);
    return () => {
      el.removeEventListener('load', onLoad);
      el.removeEventListener('pointerdown', invite);
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('focusin', onFocusIn);
      window.removeEventListener('blur', onBlur);
    };
  }, [src]);

  return <iframe ref={frame} class="preview-frame" title={title} src={src} />;
}
