/**
 * Where a failed save shows in a form: an API validation message that names one of the form's
 * fields (`field 'url' is not allowed: …`) goes under that field, which takes the focus so that a
 * screen reader reads the field with its message; any other failure goes in the form's notice.
 */
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';
import { fieldNamed } from '../api/client.ts';

export interface PlacedError {
  /** The message for the field named `name` (as the API calls it), or null. */
  errorOf(name: string): string | null;
  /** The message when no field of the form is named, for the form's notice. */
  formError: string | null;
}

/** Splits `error` between the form's fields (`fields`, by their API names) and its notice. */
export function placeError(error: string | null, fields: readonly string[]): PlacedError {
  const field = fieldNamed(error);
  const onField = field !== null && fields.includes(field) ? field : null;
  return { errorOf: (name) => (onField === name ? error : null), formError: onField ? null : error };
}

/** Moves the focus to the form's invalid field each time a new message is placed on one. */
export function useFocusInvalid(form: RefObject<HTMLElement>, error: string | null): void {
  useEffect(() => {
    if (error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [error]);
}
