/** An anchor that navigates inside the app (a real link: middle-click and "open in new tab" still work). */
import type { ComponentChildren, JSX } from 'preact';
import { navigate } from '../router.ts';

type Props = Omit<JSX.HTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string; children?: ComponentChildren };

export function Link({ href, onClick, ...rest }: Props) {
  return (
    <a
      href={href}
      onClick={(event) => {
        if (typeof onClick === 'function') onClick(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
      {...rest}
    />
  );
}
