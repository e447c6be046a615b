import { queryOptions, useMutation } from '@tanstack/react-query';
import { publicCertificate, verifyCertificateResult } from '@contracts/certificates.ts';
import { apiClient } from '@/lib/api-client.ts';

/** GET /api/public/certificates/{id}: a certificate as issued, checked, and what its page shows (404 when unknown). */
export const publicCertificateQueryOptions = (certificateId: string) =>
  queryOptions({
    queryKey: ['storefront', 'certificate', certificateId] as const,
    queryFn: ({ signal }) => apiClient.get(`/api/public/certificates/${encodeURIComponent(certificateId)}`, publicCertificate, { signal }),
  });

/** POST /api/public/certificates/verify {credential}: any credential a third party holds (the VC-JWT), checked. */
export function useVerifyCredential() {
  return useMutation({
    mutationFn: (credential: string) => apiClient.post('/api/public/certificates/verify', verifyCertificateResult, { body: { credential } }),
  });
}
