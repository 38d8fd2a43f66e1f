/**
 * The chat panel: a dialog named after the bot, with the takeover notice, the conversation, the
 * lead form and the message box. Escape closes it. Beside the page it is non-modal; where it fills
 * the screen it is modal, and Tab goes round its own controls rather than to the page beneath.
 */
import type { Ref } from 'preact';
import type { ChatController } from '../chat-controller.ts';
import { safeHttpUrl } from '../markdown.ts';
import type { WidgetState } from '../store.ts';
import { CloseIcon } from './icons.tsx';
import { Composer } from './composer.tsx';
import { LeadForm } from './lead-form.tsx';
import { MessageList } from './message-list.tsx';
import { useWords } from './words-context.ts';

export interface PanelProps {
  state: WidgetState;
  controller: ChatController;
  /** The panel fills the screen (a phone). */
  fullScreen: boolean;
  inputRef: Ref<HTMLTextAreaElement>;
}

/** Moves Tab from the panel's last control to its first, and Shift+Tab from its first to its last. */
function keepFocusInside(event: KeyboardEvent, panel: HTMLElement): void {
  const controls = Array.from(panel.querySelectorAll<HTMLElement>('a[href], button, input, textarea, [tabindex]')).filter(
    (el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0,
  );
  const edge = event.shiftKey ? controls[0] : controls[controls.length - 1];
  if (!edge || (panel.getRootNode() as ShadowRoot).activeElement !== edge) return;
  event.preventDefault();
  (event.shiftKey ? controls[controls.length - 1] : controls[0])!.focus();
}

export function Panel({ state, controller, fullScreen, inputRef }: PanelProps) {
  const config = state.config!;
  const words = useWords();
  const meetingUrl = config.calendar_scheduling_enabled && config.meeting_url ? safeHttpUrl(config.meeting_url) : null;
  return (
    <div
      id="parley-panel"
      class="panel"
      role="dialog"
      aria-modal={fullScreen}
      aria-labelledby="parley-title"
      hidden={!state.open}
      onKeyDown={(event) => {
        if (event.key === 'Tab' && fullScreen) keepFocusInside(event, event.currentTarget);
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        controller.close();
      }}
    >
      <div class="header">
        <span class="avatar" aria-hidden="true">
          {config.name.trim().charAt(0).toUpperCase() || '?'}
        </span>
        <h2 class="title" id="parley-title">
          {config.name}
        </h2>
        <button type="button" class="icon-button" aria-label={words.closeChat} title={words.closeChat} onClick={() => controller.close()}>
          <CloseIcon />
        </button>
      </div>
      {state.takenOver && (
        <p class="notice" role="status">
          {words.takeover}
        </p>
      )}
      <MessageList
        items={state.items}
        open={state.open}
        welcome={config.welcome_message}
        botName={config.name}
        onRate={(key, rating) => void controller.rate(key, rating)}
        onRetry={(key) => controller.retry(key)}
      />
      {state.leadForm && (
        <LeadForm
          key={state.leadForm.fields.join()}
          fields={state.leadForm.fields}
          focusFirst={state.leadForm.byVisitor}
          onSubmit={controller.submitLead}
          onCancel={controller.hideLeadForm}
        />
      )}
      {!state.leadForm && (config.lead_capture_enabled || meetingUrl) && (
        <p class="lead-action">
          {config.lead_capture_enabled && !state.leadSent && (
            <button type="button" class="text-button" onClick={controller.showLeadForm}>
              {words.leaveDetails}
            </button>
          )}
          {meetingUrl && (
            <a class="text-button" href={meetingUrl} target="_blank" rel="noopener noreferrer">
              {words.bookMeeting}
            </a>
          )}
        </p>
      )}
      <Composer
        sending={state.sending}
        uploads={config.uploads}
        inputRef={inputRef}
        onSend={(text) => void controller.send(text)}
        onAttach={(file) => void controller.upload(file)}
      />
    </div>
  );
}
