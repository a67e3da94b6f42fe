// The signed-in dashboard user lives in test/signedIn.ts; this path still answers for the files
// that import it from here until they name the new one. New files import ../signedIn.ts.
export * from '../signedIn.ts';
