/** The dashboard's entry: styles, then the app mounted on the shell's `#app`. */
import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './styles/app.css';
import { App } from './app.tsx';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
