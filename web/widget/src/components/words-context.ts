/** The widget's words in the chosen language, for every component below the root. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { WORDS, type WidgetWords } from '../words.ts';

/** Provided by the root with the store's language. */
export const WordsContext = createContext<WidgetWords>(WORDS.en);

/** The words of the widget's language. */
export const useWords = (): WidgetWords => useContext(WordsContext);
