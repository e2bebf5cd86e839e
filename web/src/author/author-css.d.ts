/** The editor's stylesheet, imported as minified text (web/build.ts) and added to the page with the editor. */
declare module '*.css' {
  const css: string;
  export default css;
}
