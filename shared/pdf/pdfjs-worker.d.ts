// pdfjs-dist ships no types for its worker module; anchors.ts imports it only to register it (globalThis.pdfjsWorker).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
