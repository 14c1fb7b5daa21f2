import type { BuildOptions } from 'esbuild';

export declare function childEntryPoints(cwd: string): Record<string, string>;
export declare const BUNDLE_OPTIONS: BuildOptions;
