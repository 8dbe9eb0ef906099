// ketcher-standalone's binaryWasm entry (Indigo as a separate .wasm file, fetched by its worker)
// ships no types of its own; it exports the same API as the package's default entry, which
// inlines the 9 MB WASM as base64 into the JavaScript instead.
declare module 'ketcher-standalone/dist/binaryWasm' {
  export { StandaloneStructService, StandaloneStructServiceProvider } from 'ketcher-standalone';
}
