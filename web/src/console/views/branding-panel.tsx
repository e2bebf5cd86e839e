/** Branding, where the deployment has its route; nothing otherwise. */
export function BrandingPanel() {
  return null;
}
