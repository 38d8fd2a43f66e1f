/** The frame of the signed-out pages: the brand and one centred card. */
import type { ComponentChildren } from 'preact';

export function AuthFrame({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <main class="auth-page" id="main">
      <div class="auth-card">
        <p class="brand auth-brand">
          <span class="brand-mark" aria-hidden="true" />
          Parley
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
