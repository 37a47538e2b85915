package io.springport.greeter;

import java.util.Set;

import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanDefinitionHolder;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Declares the RandomNumber bean in the scope app.number.scope names
 * (greeter's setting): what a Spring developer writes as
 * {@code @Component @Scope("prototype")} (the default), or
 * {@code @Scope(value = "request", proxyMode = TARGET_CLASS)}: @Scope takes
 * no placeholder, so the definition is registered here. Request and session
 * scopes get a scoped proxy, so that the singleton controller can hold them.
 */
@Component
public class NumberScope implements BeanDefinitionRegistryPostProcessor, EnvironmentAware {

	private static final Set<String> SCOPES = Set.of("prototype", "request", "session", "singleton");

	private Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
		String scope = environment.getProperty("app.number.scope", "prototype").trim().toLowerCase();
		if (!SCOPES.contains(scope)) {
			throw new IllegalStateException(
					"app.number.scope=" + scope + " is not one of prototype, request, session, singleton");
		}
		RootBeanDefinition definition = new RootBeanDefinition(RandomNumber.class);
		definition.setScope(scope);
		BeanDefinitionHolder holder = new BeanDefinitionHolder(definition, "randomNumber");
		if (scope.equals("request") || scope.equals("session")) {
			holder = ScopedProxyUtils.createScopedProxy(holder, registry, true);
		}
		registry.registerBeanDefinition(holder.getBeanName(), holder.getBeanDefinition());
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
	}
}
