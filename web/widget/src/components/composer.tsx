/** The message box: Enter sends, Shift+Enter starts a new line; a paper clip attaches a file. */
import type { Ref } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { UploadRules } from '../api-client.ts';
import { MAX_MESSAGE_CHARS } from '../chat-controller.ts';
import { acceptAttribute } from '../upload-rules.ts';
import { AttachIcon, SendIcon } from './icons.tsx';
import { useWords } from './words-context.ts';

export interface ComposerProps {
  sending: boolean;
  uploads: UploadRules;
  inputRef: Ref<HTMLTextAreaElement>;
  onSend(text: string): void;
  onAttach(file: File): void;
}

const MAX_INPUT_HEIGHT = 120;

export function Composer({ sending, uploads, inputRef, onSend, onAttach }: ComposerProps) {
  const words = useWords();
  const [text, setText] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);

  function grow(el: HTMLTextAreaElement): void {
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight + 2, MAX_INPUT_HEIGHT)}px`;
  }

  function submit(event?: Event): void {
    event?.preventDefault();
    if (sending || !text.trim()) return;
    onSend(text);
    setText('');
    const el = (inputRef as { current: HTMLTextAreaElement | null }).current;
    if (el) el.style.height = 'auto';
  }

  return (
    <form class="composer" onSubmit={submit}>
      {uploads.types.length > 0 && (
        <>
          <input
            ref={fileRef}
            type="file"
            hidden
            accept={acceptAttribute(uploads)}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = '';
              if (file) onAttach(file);
            }}
          />
          <button type="button" class="icon-button attach" aria-label={words.attach} title={words.attach} onClick={() => fileRef.current?.click()}>
            <AttachIcon />
          </button>
        </>
      )}
      <label class="sr-only" for="parley-input">
        {words.yourMessage}
      </label>
      <textarea
        id="parley-input"
        ref={inputRef}
        rows={1}
        maxLength={MAX_MESSAGE_CHARS}
        placeholder={words.placeholder}
        value={text}
        onInput={(event) => {
          setText(event.currentTarget.value);
          grow(event.currentTarget);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) submit(event);
        }}
      />
      <button type="submit" class="icon-button send" aria-label={words.send} title={words.send} disabled={sending || !text.trim()}>
        <SendIcon />
      </button>
    </form>
  );
}
