// A cookie-keeping client for the dashboard's HTML pages: follows nothing by itself,
// so tests see each redirect and Set-Cookie.
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  private remember(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (value === '' || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(path: string, headers: Record<string, string> = {}) {
    const res = await fetch(this.baseUrl + path, {
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), ...headers },
    });
    this.remember(res);
    return { res, status: res.status, text: await res.text(), location: res.headers.get('location') };
  }

  async post(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields))
      for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    const res = await fetch(this.baseUrl + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookieHeader(),
        origin: this.baseUrl,
        ...headers,
      },
      body: body.toString(),
    });
    this.remember(res);
    return { res, status: res.status, text: await res.text(), location: res.headers.get('location') };
  }

  /** The CSRF token of the first form on a page. */
  static csrf(html: string): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(html);
    if (!m) throw new Error('no CSRF field on the page');
    return m[1]!;
  }

  /** Signs in through the form and keeps the session cookie. */
  async login(email: string, password = 'correct horse battery') {
    const page = await this.get('/dashboard/login');
    const r = await this.post('/dashboard/login', {
      _csrf: DashboardClient.csrf(page.text),
      email,
      password,
    });
    if (r.status !== 303) throw new Error(`sign-in failed: ${r.status} ${r.text.slice(0, 300)}`);
    return r;
  }

  /** Signs up through the form and keeps the session cookie. */
  async signup(email: string, password = 'correct horse battery', name = 'Dash Organiser') {
    const page = await this.get('/dashboard/signup');
    const r = await this.post('/dashboard/signup', {
      _csrf: DashboardClient.csrf(page.text),
      name,
      email,
      password,
    });
    if (r.status !== 303) throw new Error(`signup failed: ${r.status} ${r.text.slice(0, 300)}`);
    return r;
  }
}
