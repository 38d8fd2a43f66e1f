#!/usr/bin/env node
// Turns a plain ASCII text file into a PDF with real text streams (Helvetica, wrapped lines, as many
// pages as needed), so that the evaluation reads one document through the PDF extractor. The first
// line becomes a larger title. Usage: node eval/text-to-pdf.mjs input.txt output.pdf
import fs from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node eval/text-to-pdf.mjs input.txt output.pdf');
  process.exit(2);
}
const WIDTH = 92;
const LINES_PER_PAGE = 50;
const escape = (s) => `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;

function wrap(paragraph) {
  const lines = [];
  let line = '';
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

const [title, ...rest] = fs.readFileSync(input, 'utf8').replace(/\r/g, '').split('\n');
const body = [];
for (const paragraph of rest.join('\n').split(/\n\s*\n/)) {
  if (!paragraph.trim()) continue;
  body.push(...wrap(paragraph), '');
}
const pages = [];
for (let i = 0; i < body.length; i += LINES_PER_PAGE) pages.push(body.slice(i, i + LINES_PER_PAGE));

const objects = [];
const add = (text) => objects.push(text) && objects.length;
const catalog = add('');
const pagesObj = add('');
const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
const info = add(`<< /Title ${escape(title.trim())} >>`);
const kids = [];
pages.forEach((lines, n) => {
  const ops = ['BT', '72 750 Td'];
  if (n === 0) ops.push('/F1 16 Tf', `${escape(title.trim())} Tj`, '0 -26 Td');
  ops.push('/F1 10 Tf');
  for (const line of lines) ops.push(line ? `${escape(line)} Tj 0 -13 Td` : '0 -13 Td');
  ops.push('ET');
  const stream = ops.join('\n');
  const content = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
  kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
});
objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
let pdf = '%PDF-1.4\n';
const offsets = [];
objects.forEach((text, i) => {
  offsets.push(Buffer.byteLength(pdf, 'latin1'));
  pdf += `${i + 1} 0 obj\n${text}\nendobj\n`;
});
const xref = Buffer.byteLength(pdf, 'latin1');
pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
pdf += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
fs.writeFileSync(output, Buffer.from(pdf, 'latin1'));
console.log(`${pages.length} pages → ${output}`);
