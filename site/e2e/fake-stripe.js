// A stand-in for Stripe.js, served in place of https://js.stripe.com in browser tests (the
// real one cannot be reached from here). It implements what @stripe/react-stripe-js and the
// donate page use: Stripe(key), elements({clientSecret}), a "payment" element with a plain,
// labelled card-number field, and confirmPayment and confirmSetup (a card saved for later),
// which call Stripe's API at https://api.stripe.com (the tests route that to the fake-stripe
// server) and then, as Stripe does, send the browser to the return address.
//
// Test knobs: window.__fakeStripeReadyDelay (ms before the element is ready, default 50).
(() => {
  const API = 'https://api.stripe.com/v1';

  function Stripe(key) {
    if (typeof key !== 'string' || !key.startsWith('pk_')) throw new Error(`Invalid publishable key: ${key}`);
    let card = null;

    // Confirms the intent behind `elements` with the card typed in; on success goes to the
    // return address with Stripe's parameters, as Stripe.js does.
    async function confirm(collection, param, elements, confirmParams) {
      const secret = elements.clientSecret;
      const id = secret.split('_secret_')[0];
      const body = new URLSearchParams({
        client_secret: secret,
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': card?.input.value ?? '',
        return_url: confirmParams.return_url,
      });
      const response = await fetch(`${API}/${collection}/${id}/confirm`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
      const json = await response.json();
      if (!response.ok) return { error: json.error };
      const url = new URL(confirmParams.return_url);
      url.searchParams.set(param, id);
      url.searchParams.set(`${param}_client_secret`, secret);
      url.searchParams.set('redirect_status', 'succeeded');
      window.location.assign(url.toString());
      return new Promise(() => {});
    }

    const stripe = {
      _registerWrapper() {},
      registerAppInfo() {},
      createToken() {},
      createPaymentMethod() {},
      confirmCardPayment() {},
      elements(options = {}) {
        const clientSecret = options.clientSecret;
        return {
          clientSecret,
          update() {},
          fetchUpdates: async () => ({}),
          submit: async () => ({}),
          getElement: () => card?.element ?? null,
          create(type) {
            if (type !== 'payment') throw new Error(`fake Stripe.js has no ${type} element`);
            const handlers = {};
            const emit = (event, payload) => (handlers[event] ?? []).forEach((h) => h(payload));
            let container = null;
            const element = {
              mount(target) {
                container = typeof target === 'string' ? document.querySelector(target) : target;
                const label = document.createElement('label');
                label.htmlFor = 'fake-stripe-card-number';
                label.textContent = 'Card number';
                label.style.display = 'block';
                const input = document.createElement('input');
                input.id = 'fake-stripe-card-number';
                input.autocomplete = 'cc-number';
                input.inputMode = 'numeric';
                input.style.cssText = 'display:block;width:100%;border:1px solid #64748b;border-radius:6px;padding:10px;margin-top:4px';
                input.addEventListener('input', () => {
                  const digits = input.value.replace(/\D/g, '');
                  emit('change', { elementType: 'payment', empty: digits.length === 0, complete: digits.length >= 12 });
                });
                container.replaceChildren(label, input);
                card = { element, input };
                setTimeout(() => emit('ready', { elementType: 'payment' }), Number(window.__fakeStripeReadyDelay ?? 50));
              },
              on(event, handler) {
                (handlers[event] ??= []).push(handler);
                return element;
              },
              off(event, handler) {
                handlers[event] = (handlers[event] ?? []).filter((h) => h !== handler);
                return element;
              },
              update() {},
              focus() {
                card?.input.focus();
              },
              blur() {},
              clear() {},
              collapse() {},
              unmount() {
                container?.replaceChildren();
              },
              destroy() {
                container?.replaceChildren();
              },
            };
            return element;
          },
        };
      },
      confirmPayment: ({ elements, confirmParams }) => confirm('payment_intents', 'payment_intent', elements, confirmParams),
      confirmSetup: ({ elements, confirmParams }) => confirm('setup_intents', 'setup_intent', elements, confirmParams),
    };
    return stripe;
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
