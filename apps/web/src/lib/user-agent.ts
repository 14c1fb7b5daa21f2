// A user agent string, shortened to what a person recognises: "Firefox 128 on Windows".

const BROWSERS: Array<[RegExp, string]> = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/FxiOS\/(\d+)/, 'Firefox'],
  [/CriOS\/(\d+)/, 'Chrome'],
  [/Chrom(?:e|ium)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
  [/curl\/(\d+)/, 'curl'],
  [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export function shortUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent?.trim()) return 'Unknown';
  const headless = /HeadlessChrome\/(\d+)/.exec(userAgent);
  const browser = headless
    ? { name: 'Headless Chrome', version: headless[1] }
    : BROWSERS.map(([re, name]) => ({ name, version: re.exec(userAgent)?.[1] })).find((b) => b.version);
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (!browser) return system ?? (userAgent.length > 40 ? `${userAgent.slice(0, 40)}…` : userAgent);
  const name = `${browser.name} ${browser.version}`;
  return system ? `${name} on ${system}` : name;
}
