package dev.outlierlab.live.spring;

import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LocalFailure;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeoutException;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.CompletionContext;
import org.springframework.cloud.client.loadbalancer.LoadBalancerLifecycle;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.client.loadbalancer.Response;
import org.springframework.cloud.client.loadbalancer.ResponseData;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Feeds a {@link LivePool} from Spring Cloud LoadBalancer: each completed call to an instance is recorded
 * for it. A response's status is recorded as it is (from {@link ResponseData}, a {@link ClientHttpResponse}
 * or an {@link HttpStatusCode}); a call that ended in an exception is a timeout ({@link TimeoutException},
 * {@link SocketTimeoutException}), a connect failure ({@link ConnectException}) or otherwise a reset;
 * discarded calls (no instance was chosen) are not recorded. Register it as a bean, or in
 * {@code LoadBalancerLifecycleValidator}'s list for the client's service.
 */
public final class OutlierDetectionLifecycle implements LoadBalancerLifecycle<Object, Object, ServiceInstance> {
    private final LivePool pool;

    public OutlierDetectionLifecycle(LivePool pool) {
        this.pool = pool;
    }

    @Override
    public boolean supports(Class requestContextClass, Class responseClass, Class serverTypeClass) {
        return ServiceInstance.class.isAssignableFrom(serverTypeClass);
    }

    @Override
    public void onStart(Request<Object> request) {
    }

    @Override
    public void onStartRequest(Request<Object> request, Response<ServiceInstance> lbResponse) {
    }

    @Override
    public void onComplete(CompletionContext<Object, ServiceInstance, Object> context) {
        if (context.status() == CompletionContext.Status.DISCARD || context.getLoadBalancerResponse() == null
                || context.getLoadBalancerResponse().getServer() == null) {
            return;
        }
        Endpoint endpoint = pool.endpoint(OutlierDetectionServiceInstanceListSupplier.key(
                context.getLoadBalancerResponse().getServer()));
        if (endpoint == null) {
            return;
        }
        Throwable error = context.getThrowable();
        if (error != null) {
            pool.record(endpoint, classify(error));
            return;
        }
        int status = status(context.getClientResponse());
        if (status >= 100 && status <= 599) {
            pool.record(endpoint, status);
        } else if (context.status() == CompletionContext.Status.FAILED) {
            pool.record(endpoint, LocalFailure.RESET);
        } else {
            pool.record(endpoint, 200);
        }
    }

    private static int status(Object response) {
        try {
            if (response instanceof ResponseData data && data.getHttpStatus() != null) {
                return data.getHttpStatus().value();
            }
            if (response instanceof ClientHttpResponse http) {
                return http.getStatusCode().value();
            }
            if (response instanceof HttpStatusCode code) {
                return code.value();
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    static LocalFailure classify(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException || t instanceof SocketTimeoutException
                    || t instanceof java.net.http.HttpTimeoutException) {
                return LocalFailure.TIMEOUT;
            }
            if (t instanceof ConnectException) {
                return LocalFailure.CONNECT_FAILED;
            }
        }
        return LocalFailure.RESET;
    }
}
