/**
 * pdf.js in Node, for reading text (anchors.ts): its legacy build, with its worker in this thread, loaded on first
 * use so that processes which never read a PDF's text never load it. Loading it leaves the process as it was
 * except for what pdf.js needs: the features core-js adds where the runtime lacks them (on Node 20:
 * Promise.withResolvers and Promise.try, Map/WeakMap getOrInsert, Set methods, Uint8Array base64 and hex,
 * ArrayBuffer transfer, Math.sumPrecise, Iterator) and pdf.js's own globals (pdfjsWorker, pdfjsLib,
 * _pdfjsTestingUtils, __core-js_shared__, self, and navigator where the runtime has none).
 */
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loading: Promise<PdfJs> | undefined;

export function loadPdfjs(): Promise<PdfJs> {
  loading ??= importPdfjs().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/**
 * Importing the worker module registers it (globalThis.pdfjsWorker), so pdf.js runs it in this thread instead of
 * starting a worker or importing one by path, and a bundler sees and includes it.
 *
 * pdf.js's display layer constructs a DOMMatrix when its module loads, for canvas rendering, and Node has none.
 * pdf.js would take @napi-rs/canvas's, a native module the project leaves out (package.json overrides). A
 * placeholder stands in while the module loads and is removed after, so no half DOMMatrix lingers for other code
 * to take for a real one. (Its parser makes one to trace Type3 glyphs drawn from image masks, for rendering; the
 * text of such glyphs is kept without it: test/pdf/anchors.test.ts.)
 */
async function importPdfjs(): Promise<PdfJs> {
  const restoreBuiltIns = builtInsRestorer();
  const scope = globalThis as { DOMMatrix?: unknown };
  const placeholder = scope.DOMMatrix === undefined ? class IdentityMatrix { a = 1; b = 0; c = 0; d = 1; e = 0; f = 0 } : undefined;
  if (placeholder) scope.DOMMatrix = placeholder;
  try {
    const [pdfjs] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);
    return pdfjs;
  } finally {
    if (placeholder && scope.DOMMatrix === placeholder) delete scope.DOMMatrix;
    restoreBuiltIns();
  }
}

/**
 * The legacy build carries core-js, which also replaces built-ins it finds wanting. On Node 20 those are
 * JSON.stringify (20 times slower after), JSON.parse, Array.prototype.push (2.5 times slower) and
 * Function.prototype.toString, for the whole process. pdf.js does not depend on what the replacements change
 * (it runs on the browsers' own), so the originals are put back once it has loaded; what core-js added stays.
 */
function builtInsRestorer(): () => void {
  const typedArray = Object.getPrototypeOf(Uint8Array) as { prototype: object };
  const targets: object[] = [
    Array, Array.prototype, ArrayBuffer, ArrayBuffer.prototype, DataView.prototype, Date, Date.prototype, Error,
    Function.prototype, JSON, Map, Map.prototype, Math, Number, Number.prototype, Object, Object.prototype, Promise,
    Promise.prototype, Reflect, RegExp, RegExp.prototype, Set, Set.prototype, String, String.prototype, Symbol,
    Symbol.prototype, WeakMap, WeakMap.prototype, WeakSet.prototype, typedArray, typedArray.prototype,
    Uint8Array, Uint8Array.prototype,
  ];
  const before = targets.map((target) => ({ target, keys: Reflect.ownKeys(target).map((key) => ({ key, was: Object.getOwnPropertyDescriptor(target, key) })) }));
  return () => {
    for (const { target, keys } of before) {
      for (const { key, was } of keys) {
        const now = Object.getOwnPropertyDescriptor(target, key);
        if (was && 'value' in was && now && !Object.is(now.value, was.value)) Object.defineProperty(target, key, was);
      }
    }
  };
}
