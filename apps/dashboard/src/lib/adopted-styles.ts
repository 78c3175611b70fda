/**
 * xterm.js writes its theme and layout CSS into `<style>` elements, which `style-src 'self'` blocks. While
 * `run` executes (the terminal's `open`), every `<style>` the document creates keeps its text in a
 * constructed stylesheet adopted by the document instead (CSSOM, which the CSP allows); the element xterm
 * gets is an empty, inert `<template>`. The CSP stays strict and no inline style is ever parsed.
 */
export function withAdoptedStyles<T>(doc: Document, run: () => T): T {
  const original = doc.createElement;
  const patched = function (this: Document, tag: string, options?: ElementCreationOptions): HTMLElement {
    if (tag.toLowerCase() !== 'style') return original.call(this, tag, options);
    // Even an empty <style> in the page is a CSP violation: an inert <template> stands in for it.
    const el = original.call(this, 'template', options);
    adoptStyleText(doc, el);
    return el;
  };
  doc.createElement = patched as typeof doc.createElement;
  try {
    return run();
  } finally {
    doc.createElement = original;
  }
}

function adoptStyleText(doc: Document, el: HTMLElement): void {
  const sheet = new CSSStyleSheet();
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  let text = '';
  Object.defineProperty(el, 'textContent', {
    configurable: true,
    get: () => text,
    set: (value: string | null) => {
      text = value ?? '';
      sheet.replaceSync(text);
    },
  });
  const remove = el.remove.bind(el);
  el.remove = (): void => {
    doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== sheet);
    remove();
  };
}
