// js-yaml ships no types (it comes with Astro's and Redocly's dependencies); the tests use only load().
declare module 'js-yaml' {
  export function load(text: string): unknown;
  const jsYaml: { load: typeof load };
  export default jsYaml;
}
