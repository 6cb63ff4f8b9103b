package dev.outlierlab.live.spring;

import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.FailureClassifier;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LocalFailure;
import java.io.IOException;
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
 * or an {@link HttpStatusCode}), through a {@link FailureClassifier} (by default a 5xx fails; a
 * {@code grpc-status} is mapped as Envoy maps it); a call that ended in an exception is a timeout, a connect
 * failure or otherwise a reset;
 * discarded calls (no instance was chosen) are not recorded. Declare it as a bean of the service's own
 * load-balancer configuration ({@code @LoadBalancerClient(name = ..., configuration = ...)}), with that
 * service's pool: Spring Cloud looks lifecycles up in the service's child context and its parents, so one
 * declared in the application context would receive every service's calls. The Spring Boot starter does this
 * for each configured service. Mirrors Envoy's router reporting each upstream answer to the host's outlier
 * monitor ({@code Router::Filter::onUpstreamHeaders}, {@code putHttpResponseCode}).
 */
public final class OutlierDetectionLifecycle implements LoadBalancerLifecycle<Object, Object, ServiceInstance> {
    private final LivePool pool;
    private final FailureClassifier classifier;

    public OutlierDetectionLifecycle(LivePool pool) {
        this(pool, FailureClassifier.defaults());
    }

    /** Records what {@code classifier} makes of each call (a 429 that fails, exceptions to ignore, ...). */
    public OutlierDetectionLifecycle(LivePool pool, FailureClassifier classifier) {
        this.pool = pool;
        this.classifier = classifier;
    }

    @Override
    public boolean supports(Class requestContextClass, Class responseClass, Class serverTypeClass) {
        return ServiceInstance.class.isAssignableFrom(serverTypeClass);
    }

    @Override
    public void onStart(Request<Object> request) {}

    @Override
    public void onStartRequest(Request<Object> request, Response<ServiceInstance> lbResponse) {}

    @Override
    public void onComplete(CompletionContext<Object, ServiceInstance, Object> context) {
        if (context.status() == CompletionContext.Status.DISCARD
                || context.getLoadBalancerResponse() == null
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
            LocalFailure failure = classifier.failureToRecord(error);
            if (failure != null) {
                pool.record(endpoint, failure);
            }
            return;
        }
        int status = status(context.getClientResponse());
        if (status >= 100 && status <= 599) {
            pool.record(endpoint, classifier.statusToRecord(status, grpcStatus(context.getClientResponse())));
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
        return FailureClassifier.defaults().failureToRecord(error);
    }

    /** The {@code grpc-status} header of the answer, or -1. */
    private static int grpcStatus(Object response) {
        String value = null;
        if (response instanceof ResponseData data && data.getHeaders() != null) {
            value = data.getHeaders().getFirst("grpc-status");
        } else if (response instanceof ClientHttpResponse http) {
            value = http.getHeaders().getFirst("grpc-status");
        }
        if (value == null) {
            return -1;
        }
        try {
            return Math.max(-1, Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
