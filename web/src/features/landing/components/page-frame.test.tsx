import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PageFrame } from './page-frame.tsx';

describe('PageFrame', () => {
  it('shows the HTML in an iframe with an empty sandbox: an opaque origin that runs no script', () => {
    const html = '<!DOCTYPE html><html><body><h1>Acme</h1><script>parent.document.title = "pwned"</script></body></html>';
    render(<PageFrame html={html} title="Preview of your landing page" />);

    const frame = screen.getByTitle('Preview of your landing page');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('sandbox')).not.toContain('allow-same-origin');
    expect(frame.getAttribute('sandbox')).not.toContain('allow-scripts');
    expect(frame).toHaveAttribute('srcdoc', html);
    expect(frame).not.toHaveAttribute('src');
    expect(frame).toHaveAttribute('referrerpolicy', 'no-referrer');
  });
});
