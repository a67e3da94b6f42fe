// Types for serverBuild.js, which bin/eventlog.js runs as plain JavaScript.
export declare const root: string;
export declare const distDir: string;
export declare const fingerprintFile: string;
export declare function sourceFingerprint(): string;
export declare function distIsCurrent(): boolean;
export declare function serverNodeFlags(): string[];
