// The part of jStat (the `jstat` package ships no types) that bench/drop-sim-stats.ts calls.
declare module 'jstat' {
  const jStat: {
    /** The regularised lower incomplete gamma P(a, x). */
    lowRegGamma(a: number, x: number): number;
  };
  export default jStat;
}
