// The few WebAssembly globals schema-engine.ts uses (Node has them; @types/node 20 does not declare them).
declare namespace WebAssembly {
  type Module = { readonly __wasmModule: unique symbol };
  interface Instance {
    readonly exports: Record<string, unknown>;
  }
  function compile(bytes: ArrayBufferView | ArrayBuffer): Promise<Module>;
  function instantiate(module: Module, imports?: Record<string, Record<string, unknown>>): Promise<Instance>;
}
